/**
 * What the run route modules share: their OpenAPI tag and answer schemas, the
 * options a live answer follows a run with, and finding the run a join names.
 */
import type { RunRecord } from "@deerflow/runtime";
import type { FastifyRequest } from "fastify";
import { anyRunOrThrow, runOrThrow, type LangGraphContext } from "./context.js";
import { SSE_DESCRIPTION } from "./response-schemas.js";
import type { FollowOptions } from "./run-stream.js";

/** Path parameters of `/threads/:thread_id/runs`. */
export type ThreadParams = { thread_id: string };
/** Path parameters of `/threads/:thread_id/runs/:run_id`. */
export type RunParams = { thread_id: string; run_id: string };

/** The OpenAPI tag of every run route. */
export const RUN_TAGS = ["runs"];

/** The answer of a streaming route (documentation only: SSE is not serialized by Fastify). */
export const sseResponse = {
  200: { description: SSE_DESCRIPTION, content: { "text/event-stream": { schema: { type: "string" } } } },
} as const;

/** The answer of `/wait` and `/join`. */
export const waitResponse = {
  200: {
    description:
      "The final state values (newline keep-alives precede them while the run is active), or {__error__: {error, message}} when it failed.",
    type: "object",
    additionalProperties: true,
  },
} as const;

/**
 * How a live answer to `request` follows a run: the gateway's heartbeat, the
 * request's logger, and the request id naming the subscription.
 */
export function followOptions(
  ctx: LangGraphContext,
  request: FastifyRequest,
  cancelOnDisconnect: boolean,
): Pick<FollowOptions, "heartbeatMs" | "cancelOnDisconnect" | "log" | "subscriber"> {
  return { heartbeatMs: ctx.heartbeatMs, cancelOnDisconnect, log: request.log, subscriber: request.id };
}

/**
 * The run a join names: a run of the thread when the path names one, else
 * (stateless `/runs/:run_id`) any run whose thread the caller may read.
 *
 * @throws RuntimeError `RUN_NOT_FOUND` (404).
 */
export async function joinedRun(
  ctx: LangGraphContext,
  request: FastifyRequest,
  runId: string,
  threadId: string | null,
): Promise<RunRecord> {
  return threadId === null ? anyRunOrThrow(ctx, request, runId) : runOrThrow(ctx, request, threadId, runId);
}
