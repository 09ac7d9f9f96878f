/**
 * A response written over time (SSE streams, `/wait` and `/join` with
 * keep-alives), outside Fastify's reply pipeline.
 *
 * - Headers (the reply's own, CORS included, plus the route's) are flushed at
 *   once, so clients learn `Content-Location` before the first event.
 * - Writes respect backpressure: when `write` returns false the next write
 *   waits for `drain` (or for the client to leave).
 * - Writes made in the same turn of the event loop are corked into one
 *   socket write (uncorked on the next tick).
 * - `signal` aborts when the client disconnects (`clientGone`) or the server
 *   closes; whoever reads a run's stream passes it on, so no subscription
 *   outlives its client.
 */
import { once } from "node:events";
import type { FastifyReply, FastifyRequest } from "fastify";

/** Why a live response was aborted. */
export type LiveAbortReason = "client_disconnected" | "server_closing";

/** The live responses of one plugin instance, ended when the server closes. */
export class LiveResponses {
  readonly #open = new Set<LiveResponse>();

  /** Starts a response: status and headers are sent at once. */
  open(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    headers: Readonly<Record<string, string>>,
  ): LiveResponse {
    const response = new LiveResponse(request, reply, status, headers, () => this.#open.delete(response));
    if (!response.signal.aborted) this.#open.add(response);
    return response;
  }

  /** Aborts every open response (the server is closing); their runs go on. */
  closeAll(): void {
    for (const response of this.#open) response.abort("server_closing");
    this.#open.clear();
  }

  /** Number of open responses. */
  get size(): number {
    return this.#open.size;
  }
}

/** One live response. */
export class LiveResponse {
  readonly #controller = new AbortController();
  readonly #raw: FastifyReply["raw"];
  readonly #onDone: () => void;
  #ended = false;
  #corked = false;

  /** Aborted when the client disconnects or the server closes. */
  readonly signal: AbortSignal = this.#controller.signal;

  constructor(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    headers: Readonly<Record<string, string>>,
    onDone: () => void,
  ) {
    this.#raw = reply.raw;
    this.#onDone = onDone;
    const raw = this.#raw;
    raw.on("close", this.#onClose);
    // A write to a socket the client closed fails asynchronously; `close` reports it.
    raw.on("error", () => {});
    const merged: Record<string, string | number | string[]> = {};
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) merged[name] = value as string | number | string[];
    reply.hijack();
    if (raw.destroyed || request.raw.socket?.destroyed === true) {
      this.abort("client_disconnected");
      return;
    }
    raw.writeHead(status, { ...merged, ...headers });
    raw.flushHeaders();
  }

  /** True when the client went away before the response ended. */
  get clientGone(): boolean {
    return this.signal.aborted && this.signal.reason === "client_disconnected";
  }

  /**
   * Writes a chunk, waiting for `drain` when the socket buffer is full.
   *
   * @throws the signal's reason (a string) when the response was aborted meanwhile.
   */
  async write(chunk: string): Promise<void> {
    if (this.signal.aborted) throw this.signal.reason;
    // Frames written in the same turn (a burst of events) leave in one socket write, not one each.
    if (!this.#corked) {
      this.#corked = true;
      this.#raw.cork();
      process.nextTick(this.#uncork);
    }
    if (this.#raw.write(chunk)) return;
    try {
      await once(this.#raw, "drain", { signal: this.signal });
    } catch (err) {
      if (this.signal.aborted) throw this.signal.reason;
      throw err;
    }
  }

  /** Ends the response (idempotent); a later client disconnect is no longer one. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#raw.off("close", this.#onClose);
    this.#onDone();
    if (!this.#raw.destroyed && !this.#raw.writableEnded) this.#raw.end();
  }

  /** Aborts the response and closes the connection's response (server closing, client gone). */
  abort(reason: LiveAbortReason): void {
    if (!this.signal.aborted) this.#controller.abort(reason);
    if (reason === "server_closing") this.end();
  }

  readonly #uncork = (): void => {
    this.#corked = false;
    this.#raw.uncork();
  };

  readonly #onClose = (): void => {
    if (!this.#ended) this.abort("client_disconnected");
  };
}
