/**
 * A thread's run records: list, get, delete and cancel
 * (`/threads/:thread_id/runs[/:run_id[/cancel]]`).
 */
import type { FastifyInstance } from "fastify";
import { threadParamsSchema } from "../schemas.js";
import { runNotFound, runOrThrow, threadOrThrow, type LangGraphContext } from "./context.js";
import {
  cancelQuerySchema,
  runListQuerySchema,
  runParamsSchema,
  type CancelQuery,
  type RunListQuery,
} from "./request-schemas.js";
import { runSchema } from "./response-schemas.js";
import { flag } from "./run-admission.js";
import { RUN_TAGS, type RunParams, type ThreadParams } from "./run-route-parts.js";
import { toWireRun } from "./wire.js";

/** Registers the run listing, lookup, deletion and cancellation routes. */
export function registerRunRecordRoutes(app: FastifyInstance, ctx: LangGraphContext): void {
  const { manager } = ctx;
  const tags = RUN_TAGS;

  app.get<{ Params: ThreadParams; Querystring: RunListQuery }>(
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
    {
      schema: { summary: "Get a run", tags, params: runParamsSchema, response: { 200: runSchema }, "x-errors": [404] },
    },
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

  app.post<{ Params: RunParams; Querystring: CancelQuery }>(
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
}
