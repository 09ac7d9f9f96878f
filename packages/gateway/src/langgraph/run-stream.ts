/**
 * Serving a run over a live response: its SSE stream, or its final values
 * (`/wait`, `/join`) with newline keep-alives while it runs.
 */
import type { RunManager, RunRecord } from "@deerflow/runtime";
import type { FastifyBaseLogger } from "fastify";
import type { LiveResponse } from "./live-response.js";
import { SSE_END, SSE_HEARTBEAT, gapFrame, sseFrame } from "./sse.js";
import type { ThreadStateAccess } from "./state-graph.js";

/** How one response follows a run. */
export interface FollowOptions {
  readonly runId: string;
  /** Resume after this event id (`-1` / absent: from the first). */
  readonly lastEventId?: string | undefined;
  readonly heartbeatMs: number;
  /** Cancel the run (interrupt) when the client disconnects before the stream ends. */
  readonly cancelOnDisconnect: boolean;
  /** Only events whose (base) name passes; `metadata`, `error` and the end always pass. */
  readonly accept?: ((event: string) => boolean) | undefined;
  readonly log: FastifyBaseLogger;
  /** Names this response in the stream bridge's log lines (the request id). */
  readonly subscriber?: string | undefined;
}

/** The error frame sent when the stream itself breaks (not the run): the client should rejoin. */
const STREAM_FAILED = {
  error: "StreamError",
  message: "The run's event stream failed; rejoin it with Last-Event-ID to continue.",
};

/** Cancels a run whose client left, if it is still active. */
async function cancelAbandoned(manager: RunManager, runId: string, log: FastifyBaseLogger): Promise<void> {
  try {
    const run = await manager.get(runId);
    if (run !== null && (run.status === "pending" || run.status === "running"))
      await manager.cancel(runId, { action: "interrupt" });
  } catch (err) {
    log.debug({ err, runId }, "could not cancel a run whose client disconnected");
  }
}

/**
 * Writes a run's events as SSE frames until its end (then the `end` frame), a
 * gap (the `gap` frame, no end), the client leaving or the server closing.
 * Ends the response. Never throws.
 */
export async function pipeRunStream(
  manager: RunManager,
  response: LiveResponse,
  options: FollowOptions,
): Promise<void> {
  const { runId, log } = options;
  let complete = false;
  try {
    const items = manager.stream(runId, {
      lastEventId: options.lastEventId ?? null,
      heartbeatMs: options.heartbeatMs,
      signal: response.signal,
      ...(options.subscriber === undefined ? {} : { subscriber: options.subscriber }),
    });
    for await (const item of items) {
      if (item.kind === "event") {
        if (options.accept === undefined || options.accept(item.event))
          await response.write(sseFrame(item.event, item.data, item.id));
      } else if (item.kind === "heartbeat") {
        await response.write(SSE_HEARTBEAT);
      } else if (item.kind === "gap") {
        await response.write(gapFrame(item));
        complete = true;
        break;
      } else {
        await response.write(SSE_END);
        complete = true;
        break;
      }
    }
  } catch (err) {
    if (!response.signal.aborted) {
      log.error({ err, runId }, "run stream failed");
      await response.write(sseFrame("error", STREAM_FAILED)).catch(() => {});
    }
  } finally {
    const abandoned = !complete && response.clientGone;
    response.end();
    if (abandoned && options.cancelOnDisconnect) await cancelAbandoned(manager, runId, log);
  }
}

/** What `/wait` and `/join` answer. */
type FinalValues = Record<string, unknown>;

/** An `error` event's data, as the worker publishes it. */
interface ErrorEventData {
  error?: unknown;
  name?: unknown;
  message?: unknown;
}

/**
 * The final values of a finished run: `{__error__: {error, message}}` when it
 * failed (its `error` event, or its record), else the thread's state values
 * (with `__interrupt__` when it stopped at an interrupt).
 */
async function finalValuesOf(
  manager: RunManager,
  state: ThreadStateAccess,
  run: RunRecord,
  errorEvent: ErrorEventData | undefined,
): Promise<FinalValues> {
  const final = await manager.join(run.runId);
  if (errorEvent !== undefined) {
    const error =
      typeof errorEvent.error === "string"
        ? errorEvent.error
        : typeof errorEvent.name === "string"
          ? errorEvent.name
          : "Error";
    return { __error__: { error, message: typeof errorEvent.message === "string" ? errorEvent.message : "" } };
  }
  // A cancel (interrupt, rollback) is not a failure: the caller gets the state the run left.
  if ((final.status === "error" || final.status === "timeout") && final.cancelAction === null) {
    return { __error__: { error: final.status === "timeout" ? "TimeoutError" : "Error", message: final.error ?? "" } };
  }
  // A user-created assistant is no system assistant: its graph is the one the thread's metadata names.
  let metadata: Record<string, unknown> = { assistant_id: final.assistantId };
  if (state.assistantOf(metadata) === undefined) {
    const thread = await manager.store.getThread(final.threadId);
    if (thread !== null) metadata = { graph_id: thread.metadata["graph_id"], ...metadata };
  }
  const snapshot = await state.state(final.threadId, metadata);
  const values = snapshot?.values;
  const out: FinalValues =
    typeof values === "object" && values !== null && !Array.isArray(values) ? { ...(values as FinalValues) } : {};
  if (snapshot !== null && snapshot.interrupts.length > 0) out["__interrupt__"] = snapshot.interrupts;
  return out;
}

/**
 * Follows a run to its end with a newline keep-alive at every heartbeat, then
 * writes its final values as JSON. Leading newlines are JSON whitespace, so
 * clients parse the body unchanged. Ends the response; never throws.
 *
 * @param beforeAnswer - runs after the values are read, before they are sent
 *   (a stateless run deletes its thread there).
 */
export async function answerWhenDone(
  manager: RunManager,
  state: ThreadStateAccess,
  response: LiveResponse,
  run: RunRecord,
  options: Omit<FollowOptions, "runId" | "accept" | "lastEventId"> & { beforeAnswer?: () => Promise<void> },
): Promise<void> {
  const { log } = options;
  let errorEvent: ErrorEventData | undefined;
  let ended = false;
  try {
    const items = manager.stream(run.runId, {
      heartbeatMs: options.heartbeatMs,
      signal: response.signal,
      ...(options.subscriber === undefined ? {} : { subscriber: options.subscriber }),
    });
    for await (const item of items) {
      if (item.kind === "heartbeat") await response.write("\n");
      else if (item.kind === "event" && item.event === "error") errorEvent = (item.data ?? {}) as ErrorEventData;
      else if (item.kind === "end") {
        ended = true;
        break;
      } else if (item.kind === "gap") break; // events were dropped; the record and the checkpoint still tell the outcome
    }
  } catch (err) {
    if (!response.signal.aborted)
      log.warn({ err, runId: run.runId }, "run stream failed while waiting; falling back to the run record");
  }
  if (response.clientGone && !ended && options.cancelOnDisconnect) await cancelAbandoned(manager, run.runId, log);
  if (response.signal.aborted && options.beforeAnswer === undefined) {
    response.end();
    return;
  }
  try {
    const values = await finalValuesOf(manager, state, run, errorEvent);
    await options.beforeAnswer?.();
    if (!response.signal.aborted) await response.write(JSON.stringify(values));
  } catch (err) {
    if (!response.signal.aborted) {
      log.error({ err, runId: run.runId }, "could not read the final values of a run");
      await response
        .write(
          JSON.stringify({ __error__: { error: "InternalError", message: "Could not read the run's final values." } }),
        )
        .catch(() => {});
    }
  } finally {
    response.end();
  }
}
