/**
 * Creating runs: background, stream and wait, on a thread
 * (`/threads/:thread_id/runs...`) or stateless (`/runs...`, on a temporary
 * thread deleted once the run ended).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { threadParamsSchema } from "../schemas.js";
import { inBackground, type LangGraphContext } from "./context.js";
import { runSchema } from "./response-schemas.js";
import { admitRun, contentLocationOf, sseHeadersOf, waitHeadersOf, type AdmittedRun } from "./run-admission.js";
import { RUN_TAGS, followOptions, sseResponse, waitResponse, type ThreadParams } from "./run-route-parts.js";
import { answerWhenDone, pipeRunStream } from "./run-stream.js";
import { runCreateSchema, type RunCreateBody } from "./schemas.js";
import { toWireRun } from "./wire.js";

/** A create route's handler: `threadId` null for a stateless run. */
type CreateHandler = (
  request: FastifyRequest,
  reply: FastifyReply,
  threadId: string | null,
  body: RunCreateBody,
) => Promise<unknown>;

/** The three ways to create a run, shared by the thread-bound and stateless routes. */
interface RunCreators {
  readonly background: CreateHandler;
  readonly stream: CreateHandler;
  readonly wait: CreateHandler;
}

function runCreators(ctx: LangGraphContext): RunCreators {
  const { manager } = ctx;

  /** Deletes a stateless run's thread once the run (and `after`, e.g. its stream) ended. */
  function cleanupLater(request: FastifyRequest, admitted: AdmittedRun, after?: Promise<unknown>): void {
    if (!admitted.deleteThreadAfter) return;
    inBackground(request, "could not delete the thread of a stateless run", async () => {
      await Promise.all([manager.join(admitted.run.runId), after]);
      await manager.deleteThread(admitted.run.threadId);
    });
  }

  return {
    async background(request, reply, threadId, body) {
      const admitted = await admitRun(ctx, request, threadId, body);
      cleanupLater(request, admitted);
      reply.header("content-location", contentLocationOf(ctx, admitted));
      return toWireRun(admitted.run);
    },

    async stream(request, reply, threadId, body) {
      const admitted = await admitRun(ctx, request, threadId, body);
      const { run } = admitted;
      const response = ctx.live.open(request, reply, 200, sseHeadersOf(ctx, admitted));
      const piped = pipeRunStream(manager, response, {
        runId: run.runId,
        ...followOptions(ctx, request, run.onDisconnect === "cancel"),
      });
      cleanupLater(request, admitted, piped);
      await piped;
    },

    async wait(request, reply, threadId, body) {
      const admitted = await admitRun(ctx, request, threadId, body);
      const { run } = admitted;
      const response = ctx.live.open(request, reply, 200, waitHeadersOf(ctx, admitted));
      await answerWhenDone(manager, ctx.state, response, run, {
        ...followOptions(ctx, request, run.onDisconnect === "cancel"),
        ...(admitted.deleteThreadAfter
          ? { beforeAnswer: async () => void (await manager.deleteThread(run.threadId)) }
          : {}),
      });
    },
  };
}

/** Registers `POST /threads/:thread_id/runs`, `.../runs/stream` and `.../runs/wait`. */
export function registerThreadRunCreateRoutes(app: FastifyInstance, ctx: LangGraphContext): void {
  const create = runCreators(ctx);
  const schema = (summary: string, description: string, response: Record<string, unknown>) => ({
    summary,
    description,
    tags: RUN_TAGS,
    params: threadParamsSchema,
    body: runCreateSchema,
    response,
    "x-errors": [404, 409],
  });
  type Route = { Params: ThreadParams; Body: RunCreateBody };

  app.post<Route>(
    "/threads/:thread_id/runs",
    {
      schema: schema("Create a background run", "Answers the run (status pending) with Content-Location.", {
        200: runSchema,
      }),
    },
    async (request, reply) => create.background(request, reply, request.params.thread_id, request.body),
  );
  app.post<Route>(
    "/threads/:thread_id/runs/stream",
    {
      schema: schema(
        "Create a run and stream it (SSE)",
        "Content-Location names the run; Location is its join stream relative to the API root. on_disconnect=cancel interrupts the run when the client leaves.",
        sseResponse,
      ),
    },
    async (request, reply) => create.stream(request, reply, request.params.thread_id, request.body),
  );
  app.post<Route>(
    "/threads/:thread_id/runs/wait",
    { schema: schema("Create a run and wait for its final values", "Always 200 once admitted.", waitResponse) },
    async (request, reply) => create.wait(request, reply, request.params.thread_id, request.body),
  );
}

/** Registers the stateless `POST /runs`, `/runs/stream` and `/runs/wait`. */
export function registerStatelessRunCreateRoutes(app: FastifyInstance, ctx: LangGraphContext): void {
  const create = runCreators(ctx);
  const schema = (summary: string, response: Record<string, unknown>) => ({
    summary,
    description: "On a new temporary thread, deleted once the run ended unless on_completion is keep.",
    tags: RUN_TAGS,
    body: runCreateSchema,
    response,
    "x-errors": [404],
  });
  type Route = { Body: RunCreateBody };

  app.post<Route>(
    "/runs",
    { schema: schema("Create a stateless background run", { 200: runSchema }) },
    async (request, reply) => create.background(request, reply, null, request.body),
  );
  app.post<Route>(
    "/runs/stream",
    { schema: schema("Create a stateless run and stream it (SSE)", sseResponse) },
    async (request, reply) => create.stream(request, reply, null, request.body),
  );
  app.post<Route>(
    "/runs/wait",
    { schema: schema("Create a stateless run and wait for its final values", waitResponse) },
    async (request, reply) => create.wait(request, reply, null, request.body),
  );
}
