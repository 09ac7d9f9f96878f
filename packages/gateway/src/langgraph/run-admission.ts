/**
 * Creating a run from a `RunCreate` body: every check that can fail runs
 * before the run is admitted, and the run is admitted before any status line
 * is written, so a refused request leaves nothing behind and answers a plain 4xx.
 */
import { randomUUID } from "node:crypto";
import { STREAM_MODES, type RunRecord, type ThreadRecord } from "@deerflow/runtime";
import type { FastifyRequest } from "fastify";
import { mayAccessThread, ownerMetadataOf } from "../auth/thread-owner.js";
import { GatewayError } from "../errors.js";
import { authorize, threadNotFound, type LangGraphContext } from "./context.js";
import { runUserIdOf } from "./run-identity.js";
import { checkpointIdOf, toCreateRunInput } from "./run-input.js";
import type { RunCreateBody } from "./schemas.js";
import { SSE_HEADERS } from "./sse.js";

/** An admitted run and what its route needs to answer. */
export interface AdmittedRun {
  readonly run: RunRecord;
  /** True for `/runs...` (stateless) runs, whose thread is temporary. */
  readonly stateless: boolean;
  /** Stateless runs: delete the temporary thread once the run ended. */
  readonly deleteThreadAfter: boolean;
}

/**
 * Validates and admits a run.
 *
 * @param threadId - the path's thread, or null for a stateless run (a new temporary thread).
 * @throws GatewayError `FORBIDDEN` when the body names another user than the caller;
 *   RuntimeError `ASSISTANT_NOT_FOUND` (also for another user's stored assistant), `THREAD_NOT_FOUND` (404), `THREAD_BUSY` (409, strategy `reject`),
 *   GatewayError `NOT_FOUND` for an unknown checkpoint.
 */
export async function admitRun(
  ctx: LangGraphContext,
  request: FastifyRequest,
  threadId: string | null,
  body: RunCreateBody,
): Promise<AdmittedRun> {
  const userId = runUserIdOf(request.principal, body);
  // Another user's assistant is as unknown as a missing one; a stored one runs its graph with its defaults.
  const assistant = await ctx.directory.require(request.principal, body.assistant_id);
  if (assistant.system === undefined)
    throw new GatewayError(
      "NOT_FOUND",
      `Graph ${assistant.graphId} of assistant ${assistant.assistantId} is not served`,
    );
  const stateless = threadId === null;
  const tid = threadId ?? randomUUID();
  const ifNotExists = stateless ? "create" : (body.if_not_exists ?? "reject");
  let existing: ThreadRecord | null = null;
  if (!stateless) {
    await authorize(ctx, request, tid);
    existing = await ctx.manager.store.getThread(tid);
    // Another user's thread is missing to the caller, and if_not_exists=create cannot take it over.
    if (existing !== null && !mayAccessThread(request.principal, existing.metadata)) throw threadNotFound(tid);
    if (existing === null && ifNotExists === "reject") throw threadNotFound(tid);
  }
  const checkpointId = checkpointIdOf(body);
  if (checkpointId !== undefined && !(await ctx.state.hasCheckpoint(tid, checkpointId))) {
    throw new GatewayError("NOT_FOUND", `Checkpoint ${checkpointId} not found`);
  }
  const input = toCreateRunInput(body, assistant, tid, ifNotExists, userId);
  // The run records the stored assistant's id and executes its graph (the graph's system assistant).
  if (!assistant.isSystem) input.graphId = assistant.system.assistantId;
  // A thread the run creates (stateless, or if_not_exists=create) is the caller's.
  input.threadMetadata = { ...input.threadMetadata, ...ownerMetadataOf(request.principal) };
  // The thread's state is read with the graph of its latest run: recorded in the admission's own write
  // (a thread the run creates gets it with threadMetadata already).
  if (
    existing !== null &&
    (existing.metadata["assistant_id"] !== assistant.assistantId || existing.metadata["graph_id"] !== assistant.graphId)
  ) {
    input.threadMetadataUpdate = { graph_id: assistant.graphId, assistant_id: assistant.assistantId };
  }
  const claimed = !stateless && existing === null && (await claimThread(ctx, request, tid, input.threadMetadata));
  let run: RunRecord;
  try {
    run = await ctx.manager.create(input);
  } catch (err) {
    // A refused run leaves nothing behind: not the thread it claimed either.
    if (claimed) await ctx.manager.store.deleteThread(tid).catch(() => undefined);
    throw err;
  }
  return { run, stateless, deleteThreadAfter: stateless && (body.on_completion ?? "delete") === "delete" };
}

/**
 * Creates the missing thread of an `if_not_exists: "create"` run before the
 * run is admitted, when its owner matters (a non-admin caller): admitting
 * first would let a run land on a thread another user created with the same
 * id in between. Losing that race answers as for another user's thread.
 *
 * @returns true when this request created the thread (to delete if admission fails).
 * @throws RuntimeError `THREAD_NOT_FOUND` (404) when another user took the id first.
 */
async function claimThread(
  ctx: LangGraphContext,
  request: FastifyRequest,
  threadId: string,
  metadata: Record<string, unknown> | undefined,
): Promise<boolean> {
  if (request.principal.admin) return false;
  try {
    await ctx.manager.store.createThread({ threadId, metadata: metadata ?? {}, ifExists: "raise" });
    return true;
  } catch (err) {
    if ((err as { code?: unknown }).code !== "THREAD_EXISTS") throw err;
    const thread = await ctx.manager.store.getThread(threadId);
    if (thread === null || !mayAccessThread(request.principal, thread.metadata)) throw threadNotFound(threadId);
    return false;
  }
}

/** `Content-Location` of a run: DeerFlow's `/api/threads/{tid}/runs/{rid}` (or `/api/runs/{rid}`). */
export function contentLocationOf(ctx: LangGraphContext, admitted: Pick<AdmittedRun, "run" | "stateless">): string {
  const { run } = admitted;
  return admitted.stateless
    ? `${ctx.prefix}/runs/${run.runId}`
    : `${ctx.prefix}/threads/${run.threadId}/runs/${run.runId}`;
}

/**
 * `Location` of a run's join stream, relative to the API root the SDK was given
 * (the SDK appends it to its `apiUrl` to reconnect with `Last-Event-ID`).
 */
function streamLocationOf(admitted: Pick<AdmittedRun, "run" | "stateless">): string {
  const { run } = admitted;
  return admitted.stateless ? `/runs/${run.runId}/stream` : `/threads/${run.threadId}/runs/${run.runId}/stream`;
}

/** Headers of an SSE response for this run. */
export function sseHeadersOf(
  ctx: LangGraphContext,
  admitted: Pick<AdmittedRun, "run" | "stateless">,
): Record<string, string> {
  return { ...SSE_HEADERS, "content-location": contentLocationOf(ctx, admitted), location: streamLocationOf(admitted) };
}

/** Headers of a `/wait` or `/join` response (JSON with keep-alive newlines). */
export function waitHeadersOf(
  ctx: LangGraphContext,
  admitted: Pick<AdmittedRun, "run" | "stateless">,
): Record<string, string> {
  return {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-cache",
    "x-accel-buffering": "no",
    "content-location": contentLocationOf(ctx, admitted),
  };
}

/** The modes a join-stream's `stream_mode` query names (a JSON list or repeated parameters). */
export function joinStreamModes(raw: readonly string[] | undefined): ((event: string) => boolean) | undefined {
  if (raw === undefined || raw.length === 0) return undefined;
  const modes: string[] = [];
  for (const entry of raw) {
    let values: unknown = entry;
    if (entry.trimStart().startsWith("[")) {
      try {
        values = JSON.parse(entry);
      } catch {
        values = entry;
      }
    }
    for (const value of Array.isArray(values) ? values : [values]) {
      if (typeof value !== "string" || !(STREAM_MODES as readonly string[]).includes(value)) {
        throw new GatewayError("VALIDATION_FAILED", "Unsupported stream mode", {
          detail: [
            { loc: ["query", "stream_mode"], msg: `Input should be one of ${STREAM_MODES.join(", ")}`, type: "enum" },
          ],
        });
      }
      modes.push(value);
    }
  }
  const names = new Set<string>(["metadata", "error"]);
  for (const mode of modes) {
    if (mode === "messages-tuple") names.add("messages");
    else if (mode === "messages")
      for (const n of ["messages", "messages/metadata", "messages/partial", "messages/complete"]) names.add(n);
    else names.add(mode);
  }
  return (event) => names.has(event.split("|")[0] ?? event);
}

/** A `0`/`1`/`true`/`false` query flag. */
export function flag(value: string | undefined): boolean {
  return value === "1" || value === "true";
}
