/**
 * Draining: a gateway whose process is shutting down answers every new request
 * 503 with `Retry-After` and `Connection: close` (a load balancer or the SDK
 * retries elsewhere), while the requests it is already serving go on — above
 * all the SSE streams of runs that are finishing, which then end with their
 * real `end`. `GET /health` reports it (503, `"draining": true`, so readiness
 * probes take the instance out of rotation); `GET /ok` stays 200 (the process
 * is alive), and public routes (`publicRoutes`: a console's files) go on answering.
 */
import type { FastifyInstance } from "fastify";
import { PUBLIC_PATHS } from "../auth/auth-hook.js";
import { GatewayError } from "../errors.js";
import { answersPublicly } from "./public-routes.js";

/** Options of {@link drainGateway}. */
export interface DrainOptions {
  /** `Retry-After` of the 503 answers, in seconds (a positive integer). Default 1. */
  readonly retryAfterSeconds?: number;
}

/** The 503 detail of a draining gateway. */
export const DRAINING_MESSAGE = "The server is shutting down; retry shortly.";

/** The drain state of one gateway. */
export class GatewayDrain {
  #draining = false;
  #retryAfterSeconds = 1;
  #inFlight = 0;
  readonly #idle = new Set<() => void>();

  /** True once draining started. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Requests being served that arrived before draining started (open SSE streams included). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Resolves true once no such request is in flight any more, false when
   * `timeoutMs` passes first.
   */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.#inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (idle: boolean): void => {
        clearTimeout(timer);
        this.#idle.delete(onIdle);
        resolve(idle);
      };
      const onIdle = (): void => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      timer.unref();
      this.#idle.add(onIdle);
    });
  }

  /** Starts draining (idempotent; a later call only updates `retryAfterSeconds`). */
  start(options: DrainOptions = {}): void {
    const retryAfter = options.retryAfterSeconds ?? this.#retryAfterSeconds;
    if (!Number.isInteger(retryAfter) || retryAfter < 1) {
      throw new GatewayError(
        "CONFIG_INVALID",
        `retryAfterSeconds must be a positive integer, got ${String(options.retryAfterSeconds)}`,
      );
    }
    this.#retryAfterSeconds = retryAfter;
    this.#draining = true;
  }

  /**
   * Installs the hook that refuses new requests while draining and counts the
   * others until their response closes. Register it before authentication: a
   * draining instance has nothing to say to anyone, keys or not.
   */
  install(app: FastifyInstance): void {
    app.addHook("onRequest", async (request, reply) => {
      if (this.#draining && !PUBLIC_PATHS.has(request.routeOptions.url ?? "") && !answersPublicly(request)) {
        return reply
          .code(503)
          .header("retry-after", String(this.#retryAfterSeconds))
          .header("connection", "close")
          .send({ detail: DRAINING_MESSAGE });
      }
      this.#inFlight += 1;
      reply.raw.once("close", () => {
        this.#inFlight -= 1;
        if (this.#inFlight === 0) for (const wake of [...this.#idle]) wake();
      });
      return undefined;
    });
  }
}

const drains = new WeakMap<FastifyInstance, GatewayDrain>();

/** Gives a gateway its drain state (called by `createGateway`). @internal */
export function attachDrain(app: FastifyInstance): GatewayDrain {
  const drain = new GatewayDrain();
  drain.install(app);
  drains.set(app, drain);
  return drain;
}

/**
 * Starts draining a gateway built by `createGateway`: new requests get 503 with
 * `Retry-After`, requests in flight (SSE streams included) go on. Call
 * `app.close()` once they are done (`await drain.settled(ms)`); its `preClose`
 * ends the streams still open.
 *
 * @param app - the gateway.
 * @param options - `retryAfterSeconds` of the 503 answers (default 1).
 * @returns the drain state, to wait for the requests in flight.
 * @throws GatewayError `CONFIG_INVALID` when `app` was not built by `createGateway`, or for a bad `retryAfterSeconds`.
 * @example
 * ```ts
 * const drain = drainGateway(app, { retryAfterSeconds: 2 });
 * await manager.shutdown({ timeoutMs: 10_000 }); // runs finish; their streams end with `end`
 * await drain.settled(2_000);
 * await app.close();
 * ```
 */
export function drainGateway(app: FastifyInstance, options: DrainOptions = {}): GatewayDrain {
  const drain = drains.get(app);
  if (drain === undefined)
    throw new GatewayError("CONFIG_INVALID", "drainGateway: the Fastify instance was not built by createGateway");
  drain.start(options);
  return drain;
}
