/**
 * Joining a run that exists: wait for its final values
 * (`GET /threads/:thread_id/runs/:run_id/join`), or follow its stream from a
 * resume point (`.../stream`, and the stateless `GET /runs/:run_id/stream`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { LangGraphContext } from "./context.js";
import {
  joinQuerySchema,
  lastEventIdHeadersSchema,
  runParamsSchema,
  statelessRunParamsSchema,
  type JoinQuery,
} from "./request-schemas.js";
import { flag, joinStreamModes, sseHeadersOf, waitHeadersOf } from "./run-admission.js";
import { RUN_TAGS, followOptions, joinedRun, sseResponse, waitResponse, type RunParams } from "./run-route-parts.js";
import { answerWhenDone, pipeRunStream } from "./run-stream.js";

type JoinRequest = FastifyRequest<{ Querystring: JoinQuery }>;

const joinStreamSchema = (params: unknown) => ({
  summary: "Join a run's stream (SSE)",
  description:
    "Replays the events after Last-Event-ID (-1 or absent: from the first), then follows live ones. A resume point no longer kept gets a gap event.",
  tags: RUN_TAGS,
  params,
  querystring: joinQuerySchema,
  headers: lastEventIdHeadersSchema,
  response: sseResponse,
  "x-errors": [404],
});

/** Streams run `runId` (of thread `threadId`, or of any readable thread when null) from the request's `Last-Event-ID`. */
async function joinStream(
  ctx: LangGraphContext,
  request: JoinRequest,
  reply: FastifyReply,
  runId: string,
  threadId: string | null,
): Promise<void> {
  const accept = joinStreamModes(request.query.stream_mode);
  const run = await joinedRun(ctx, request, runId, threadId);
  const lastEventId = request.headers["last-event-id"];
  const response = ctx.live.open(request, reply, 200, sseHeadersOf(ctx, { run, stateless: threadId === null }));
  await pipeRunStream(ctx.manager, response, {
    runId,
    lastEventId: typeof lastEventId === "string" ? lastEventId : undefined,
    accept,
    ...followOptions(ctx, request, flag(request.query.cancel_on_disconnect)),
  });
}

/** Registers `GET /threads/:thread_id/runs/:run_id/join` and `.../stream`. */
export function registerRunJoinRoutes(app: FastifyInstance, ctx: LangGraphContext): void {
  app.get<{ Params: RunParams; Querystring: JoinQuery }>(
    "/threads/:thread_id/runs/:run_id/join",
    {
      schema: {
        summary: "Wait for a run and answer its final values",
        tags: RUN_TAGS,
        params: runParamsSchema,
        querystring: joinQuerySchema,
        response: waitResponse,
        "x-errors": [404],
      },
    },
    async (request, reply) => {
      const run = await joinedRun(ctx, request, request.params.run_id, request.params.thread_id);
      const response = ctx.live.open(request, reply, 200, waitHeadersOf(ctx, { run, stateless: false }));
      await answerWhenDone(
        ctx.manager,
        ctx.state,
        response,
        run,
        followOptions(ctx, request, flag(request.query.cancel_on_disconnect)),
      );
    },
  );

  app.get<{ Params: RunParams; Querystring: JoinQuery }>(
    "/threads/:thread_id/runs/:run_id/stream",
    { schema: joinStreamSchema(runParamsSchema) },
    async (request, reply) => joinStream(ctx, request, reply, request.params.run_id, request.params.thread_id),
  );
}

/** Registers the stateless `GET /runs/:run_id/stream`. */
export function registerStatelessRunJoinRoute(app: FastifyInstance, ctx: LangGraphContext): void {
  app.get<{ Params: { run_id: string }; Querystring: JoinQuery }>(
    "/runs/:run_id/stream",
    { schema: joinStreamSchema(statelessRunParamsSchema) },
    async (request, reply) => joinStream(ctx, request, reply, request.params.run_id, null),
  );
}
