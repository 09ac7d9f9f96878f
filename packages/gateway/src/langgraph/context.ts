/**
 * What the LangGraph route modules share: the runtime, the assistants, thread
 * state access, live responses, and the lookups every route starts with.
 */
import { RuntimeError, type RunManager, type RunRecord, type ThreadRecord } from "@deerflow/runtime";
import type { FastifyRequest } from "fastify";
import type { ThreadAuthorizer } from "../auth/thread-access.js";
import { mayAccessThread } from "../auth/thread-owner.js";
import type { AssistantDirectory } from "./assistant-directory.js";
import type { AssistantRegistry } from "./assistant-registry.js";
import type { LiveResponses } from "./live-response.js";
import type { ThreadStateAccess } from "./state-graph.js";

/** Shared by the route modules of one `langgraphRoutes` plugin. */
export interface LangGraphContext {
  readonly manager: RunManager;
  readonly assistants: AssistantRegistry;
  /** System and stored assistants, owner-scoped (what the routes look assistants up in). */
  readonly directory: AssistantDirectory;
  readonly state: ThreadStateAccess;
  readonly live: LiveResponses;
  readonly heartbeatMs: number;
  /** The plugin's URL prefix (`/api` in the gateway), for `Content-Location`. */
  readonly prefix: string;
  readonly authorizeThread: ThreadAuthorizer | undefined;
}

/** Runs work the response does not wait for (stateless cleanups); a failure is logged with `label`. */
export function inBackground(request: FastifyRequest, label: string, task: () => Promise<unknown>): void {
  void task().catch((err: unknown) => request.log.error({ err }, label));
}

/** `Thread <id> not found`. */
export function threadNotFound(threadId: string): RuntimeError {
  return new RuntimeError("THREAD_NOT_FOUND", `Thread ${threadId} not found`, { details: { threadId } });
}

/** `Thread <id> already exists` (what creating a taken id answers, whoever owns it). */
export function threadExists(threadId: string): RuntimeError {
  return new RuntimeError("THREAD_EXISTS", `Thread ${threadId} already exists`, { details: { threadId } });
}

/** `Run <id> not found`. */
export function runNotFound(runId: string): RuntimeError {
  return new RuntimeError("RUN_NOT_FOUND", `Run ${runId} not found`, { details: { runId } });
}

/** Runs the thread authorizer, when configured. */
export async function authorize(ctx: LangGraphContext, request: FastifyRequest, threadId: string): Promise<void> {
  await ctx.authorizeThread?.(request.principal, threadId);
}

/**
 * The thread, after authorization: another user's thread is reported missing
 * (see `mayAccessThread`), with the same answer as an unknown id.
 *
 * @throws RuntimeError `THREAD_NOT_FOUND` (404).
 */
export async function threadOrThrow(
  ctx: LangGraphContext,
  request: FastifyRequest,
  threadId: string,
): Promise<ThreadRecord> {
  await authorize(ctx, request, threadId);
  const thread = await ctx.manager.store.getThread(threadId);
  if (thread === null || !mayAccessThread(request.principal, thread.metadata)) throw threadNotFound(threadId);
  return thread;
}

/**
 * Whether the caller may see thread `threadId`: an admin without a lookup,
 * anyone else when it exists and is theirs.
 */
async function mayAccessThreadId(ctx: LangGraphContext, request: FastifyRequest, threadId: string): Promise<boolean> {
  if (request.principal.admin) return true;
  const thread = await ctx.manager.store.getThread(threadId);
  return thread !== null && mayAccessThread(request.principal, thread.metadata);
}

/**
 * A run of the thread (a run of another thread, or on another user's thread,
 * is reported missing).
 *
 * @throws RuntimeError `RUN_NOT_FOUND` (404).
 */
export async function runOrThrow(
  ctx: LangGraphContext,
  request: FastifyRequest,
  threadId: string,
  runId: string,
): Promise<RunRecord> {
  await authorize(ctx, request, threadId);
  const [run, visible] = await Promise.all([ctx.manager.get(runId), mayAccessThreadId(ctx, request, threadId)]);
  if (run === null || run.threadId !== threadId || !visible) throw runNotFound(runId);
  return run;
}

/**
 * A run by id alone (the stateless `/runs/:run_id` routes): reported missing
 * unless the caller may see its thread.
 *
 * @throws RuntimeError `RUN_NOT_FOUND` (404).
 */
export async function anyRunOrThrow(ctx: LangGraphContext, request: FastifyRequest, runId: string): Promise<RunRecord> {
  const run = await ctx.manager.get(runId);
  if (run === null || !(await mayAccessThreadId(ctx, request, run.threadId))) throw runNotFound(runId);
  await authorize(ctx, request, run.threadId);
  return run;
}
