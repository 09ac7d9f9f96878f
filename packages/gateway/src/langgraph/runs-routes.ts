/**
 * `/threads/:thread_id/runs...` and the stateless `/runs...`.
 */
import type { CancelAction, RunStatus } from "@deerflow/runtime";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { threadParamsSchema } from "../schemas.js";
import { authorize, inBackground, runNotFound, runOrThrow, threadOrThrow, type LangGraphContext } from "./context.js";
import { admitRun, contentLocationOf, flag, joinStreamModes, sseHeadersOf, waitHeadersOf, type AdmittedRun } from "./run-admission.js";
import type { RunCreateBody } from "./run-input.js";
import { answerWhenDone, pipeRunStream } from "./run-stream.js";
import {
  SSE_DESCRIPTION,
  cancelQuerySchema,
  joinQuerySchema,
  lastEventIdHeadersSchema,
  runCreateSchema,
  runListQuerySchema,
  runParamsSchema,
  runSchema,
  statelessRunParamsSchema,
} from "./schemas.js";
import { toWireRun } from "./wire.js";

type ThreadParams = { thread_id: string };
type RunParams = { thread_id: string; run_id: string };
type JoinQuery = { cancel_on_disconnect?: string; stream_mode?: string[] };

const sseResponse = { 200: { description: SSE_DESCRIPTION, content: { "text/event-stream": { schema: { type: "string" } } } } } as const;
const waitResponse = {
  200: {
    description: "The final state values (newline keep-alives precede them while the run is active), or {__error__: {error, message}} when it failed.",
    type: "object",
    additionalProperties: true,
  },
} as const;
const createErrors = [404, 409] as const;

/** Registers the thread-bound and stateless run routes. */
export function registerRunRoutes(app: FastifyInstance, ctx: LangGraphContext): void {
  const { manager } = ctx;
  const tags = ["runs"];

  /** Deletes a stateless run's thread once the run (and `after`, e.g. its stream) ended. */
  function cleanupLater(request: FastifyRequest, admitted: AdmittedRun, after?: Promise<unknown>): void {
    if (!admitted.deleteThreadAfter) return;
    inBackground(request, "could not delete the thread of a stateless run", async () => {
      await Promise.all([manager.join(admitted.run.runId), after]);
      await manager.deleteThread(admitted.run.threadId);
    });
  }

  async function createBackground(request: FastifyRequest, reply: FastifyReply, threadId: string | null, body: RunCreateBody) {
    const admitted = await admitRun(ctx, request, threadId, body);
    cleanupLater(request, admitted);
    reply.header("content-location", contentLocationOf(ctx, admitted));
    return toWireRun(admitted.run);
  }

  async function createStream(request: FastifyRequest, reply: FastifyReply, threadId: string | null, body: RunCreateBody): Promise<void> {
    const admitted = await admitRun(ctx, request, threadId, body);
    const { run } = admitted;
    const response = ctx.live.open(request, reply, 200, sseHeadersOf(ctx, admitted));
    const piped = pipeRunStream(manager, response, {
      runId: run.runId,
      heartbeatMs: ctx.heartbeatMs,
      cancelOnDisconnect: run.onDisconnect === "cancel",
      log: request.log,
      subscriber: request.id,
    });
    cleanupLater(request, admitted, piped);
    await piped;
  }

  async function createWait(request: FastifyRequest, reply: FastifyReply, threadId: string | null, body: RunCreateBody): Promise<void> {
    const admitted = await admitRun(ctx, request, threadId, body);
    const { run } = admitted;
    const response = ctx.live.open(request, reply, 200, waitHeadersOf(ctx, admitted));
    await answerWhenDone(manager, ctx.state, response, run, {
      heartbeatMs: ctx.heartbeatMs,
      cancelOnDisconnect: run.onDisconnect === "cancel",
      log: request.log,
      subscriber: request.id,
      ...(admitted.deleteThreadAfter ? { beforeAnswer: async () => void (await manager.deleteThread(run.threadId)) } : {}),
    });
  }

  // -- thread-bound ---------------------------------------------------------------------------

  const threadRunSchema = (summary: string, description: string, response: Record<string, unknown>) => ({
    summary,
    description,
    tags,
    params: threadParamsSchema,
    body: runCreateSchema,
    response,
    "x-errors": [...createErrors],
  });

  app.post<{ Params: ThreadParams; Body: RunCreateBody }>(
    "/threads/:thread_id/runs",
    { schema: threadRunSchema("Create a background run", "Answers the run (status pending) with Content-Location.", { 200: runSchema }) },
    async (request, reply) => createBackground(request, reply, request.params.thread_id, request.body),
  );

  app.post<{ Params: ThreadParams; Body: RunCreateBody }>(
    "/threads/:thread_id/runs/stream",
    {
      schema: threadRunSchema(
        "Create a run and stream it (SSE)",
        "Content-Location names the run; Location is its join stream relative to the API root. on_disconnect=cancel interrupts the run when the client leaves.",
        sseResponse,
      ),
    },
    async (request, reply) => createStream(request, reply, request.params.thread_id, request.body),
  );

  app.post<{ Params: ThreadParams; Body: RunCreateBody }>(
    "/threads/:thread_id/runs/wait",
    { schema: threadRunSchema("Create a run and wait for its final values", "Always 200 once admitted.", waitResponse) },
    async (request, reply) => createWait(request, reply, request.params.thread_id, request.body),
  );

  app.get<{ Params: ThreadParams; Querystring: { limit?: number; offset?: number; status?: RunStatus } }>(
    "/threads/:thread_id/runs",
    {
      schema: {
        summary: "List the thread's runs, newest first",
        tags,
        params: threadParamsSchema,
        querystring: runListQuerySchema,
        response: { 200: { type: "array", items: runSchema } },
        "x-errors": [404],
      },
    },
    async (request) => {
      const threadId = request.params.thread_id;
      await threadOrThrow(ctx, request, threadId);
      const { limit, offset, status } = request.query;
      const runs = await manager.list(threadId, {
        ...(limit === undefined ? {} : { limit }),
        ...(offset === undefined ? {} : { offset }),
        ...(status === undefined ? {} : { status }),
      });
      return runs.map(toWireRun);
    },
  );

  app.get<{ Params: RunParams }>(
    "/threads/:thread_id/runs/:run_id",
    { schema: { summary: "Get a run", tags, params: runParamsSchema, response: { 200: runSchema }, "x-errors": [404] } },
    async (request) => toWireRun(await runOrThrow(ctx, request, request.params.thread_id, request.params.run_id)),
  );

  app.delete<{ Params: RunParams }>(
    "/threads/:thread_id/runs/:run_id",
    {
      schema: {
        summary: "Delete a finished run",
        description: "204. An active run answers 409: cancel it first.",
        tags,
        params: runParamsSchema,
        response: { 204: { description: "Deleted." } },
        "x-errors": [404, 409],
      },
    },
    async (request, reply) => {
      const { thread_id: threadId, run_id: runId } = request.params;
      await runOrThrow(ctx, request, threadId, runId);
      if (!(await manager.delete(runId))) throw runNotFound(runId);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: RunParams; Querystring: { wait?: string; action?: CancelAction } }>(
    "/threads/:thread_id/runs/:run_id/cancel",
    {
      schema: {
        summary: "Cancel a run",
        description:
          "action=interrupt keeps what the run checkpointed (status interrupted); rollback restores the thread's pre-run state (status error, 'Rolled back by user'). " +
          "202 at once, or 204 once the run ended with wait=1. Cancelling a cancelled run again is accepted; a run that finished otherwise answers 409.",
        tags,
        params: runParamsSchema,
        querystring: cancelQuerySchema,
        response: { 202: { description: "Cancel accepted." }, 204: { description: "Cancelled and ended." } },
        "x-errors": [404, 409],
      },
    },
    async (request, reply) => {
      const { thread_id: threadId, run_id: runId } = request.params;
      await runOrThrow(ctx, request, threadId, runId);
      const wait = flag(request.query.wait);
      await manager.cancel(runId, { action: request.query.action ?? "interrupt", wait });
      return reply.code(wait ? 204 : 202).send();
    },
  );

  app.get<{ Params: RunParams; Querystring: JoinQuery }>(
    "/threads/:thread_id/runs/:run_id/join",
    {
      schema: {
        summary: "Wait for a run and answer its final values",
        tags,
        params: runParamsSchema,
        querystring: joinQuerySchema,
        response: waitResponse,
        "x-errors": [404],
      },
    },
    async (request, reply) => {
      const run = await runOrThrow(ctx, request, request.params.thread_id, request.params.run_id);
      const response = ctx.live.open(request, reply, 200, waitHeadersOf(ctx, { run, stateless: false }));
      await answerWhenDone(manager, ctx.state, response, run, {
        heartbeatMs: ctx.heartbeatMs,
        cancelOnDisconnect: flag(request.query.cancel_on_disconnect),
        log: request.log,
        subscriber: request.id,
      });
    },
  );

  async function joinStream(request: FastifyRequest<{ Querystring: JoinQuery }>, reply: FastifyReply, runId: string, threadId: string | null): Promise<void> {
    const accept = joinStreamModes(request.query.stream_mode);
    let run;
    if (threadId === null) {
      run = await manager.get(runId);
      if (run === null) throw runNotFound(runId);
      await authorize(ctx, request, run.threadId);
    } else {
      run = await runOrThrow(ctx, request, threadId, runId);
    }
    const lastEventId = request.headers["last-event-id"];
    const response = ctx.live.open(request, reply, 200, sseHeadersOf(ctx, { run, stateless: threadId === null }));
    await pipeRunStream(manager, response, {
      runId,
      lastEventId: typeof lastEventId === "string" ? lastEventId : undefined,
      heartbeatMs: ctx.heartbeatMs,
      cancelOnDisconnect: flag(request.query.cancel_on_disconnect),
      accept,
      log: request.log,
      subscriber: request.id,
    });
  }

  const joinStreamSchema = (params: unknown) => ({
    summary: "Join a run's stream (SSE)",
    description: "Replays the events after Last-Event-ID (-1 or absent: from the first), then follows live ones. A resume point no longer kept gets a gap event.",
    tags,
    params,
    querystring: joinQuerySchema,
    headers: lastEventIdHeadersSchema,
    response: sseResponse,
    "x-errors": [404],
  });

  app.get<{ Params: RunParams; Querystring: JoinQuery }>(
    "/threads/:thread_id/runs/:run_id/stream",
    { schema: joinStreamSchema(runParamsSchema) },
    async (request, reply) => joinStream(request, reply, request.params.run_id, request.params.thread_id),
  );

  // -- stateless ----------------------------------------------------------------------------

  const statelessSchema = (summary: string, response: Record<string, unknown>) => ({
    summary,
    description: "On a new temporary thread, deleted once the run ended unless on_completion is keep.",
    tags,
    body: runCreateSchema,
    response,
    "x-errors": [404],
  });

  app.post<{ Body: RunCreateBody }>(
    "/runs",
    { schema: statelessSchema("Create a stateless background run", { 200: runSchema }) },
    async (request, reply) => createBackground(request, reply, null, request.body),
  );
  app.post<{ Body: RunCreateBody }>(
    "/runs/stream",
    { schema: statelessSchema("Create a stateless run and stream it (SSE)", sseResponse) },
    async (request, reply) => createStream(request, reply, null, request.body),
  );
  app.post<{ Body: RunCreateBody }>(
    "/runs/wait",
    { schema: statelessSchema("Create a stateless run and wait for its final values", waitResponse) },
    async (request, reply) => createWait(request, reply, null, request.body),
  );
  app.get<{ Params: { run_id: string }; Querystring: JoinQuery }>(
    "/runs/:run_id/stream",
    { schema: joinStreamSchema(statelessRunParamsSchema) },
    async (request, reply) => joinStream(request, reply, request.params.run_id, null),
  );
}
