/**
 * `/threads/:thread_id/state` and `/history`: thread state through the graph of
 * the thread's assistant.
 */
import { RuntimeError } from "@deerflow/runtime";
import type { FastifyInstance } from "fastify";
import { GatewayError } from "../errors.js";
import { threadParamsSchema } from "../schemas.js";
import { threadOrThrow, type LangGraphContext } from "./context.js";
import { checkpointParamsSchema, stateQuerySchema, type StateQuery } from "./request-schemas.js";
import { stateUpdateResponseSchema, threadStateSchema } from "./response-schemas.js";
import {
  historyQuerySchema,
  historySchema,
  stateAtCheckpointSchema,
  stateUpdateSchema,
  type CheckpointBody,
  type HistoryBody,
  type HistoryQuery,
  type StateAtCheckpointBody,
  type StateUpdateBody,
} from "./schemas.js";
import type { CheckpointSelector, WireThreadState } from "./state-graph.js";

type ThreadParams = { thread_id: string };
type Nullable<T> = T | null | undefined;

/** A client's checkpoint object without its nulls. */
function selector(
  checkpoint: Nullable<CheckpointBody>,
  checkpointId?: Nullable<string>,
): CheckpointSelector | undefined {
  const id = checkpoint?.checkpoint_id ?? checkpointId ?? undefined;
  const out: CheckpointSelector = {};
  if (id !== undefined) out.checkpoint_id = id;
  if (checkpoint?.checkpoint_ns != null) out.checkpoint_ns = checkpoint.checkpoint_ns;
  if (checkpoint?.checkpoint_map != null) out.checkpoint_map = checkpoint.checkpoint_map;
  return Object.keys(out).length > 0 ? out : undefined;
}

function checkpointNotFound(id: string | undefined): GatewayError {
  return new GatewayError("NOT_FOUND", id === undefined ? "Checkpoint not found" : `Checkpoint ${id} not found`);
}

/** `before` of a history request: a checkpoint id, or a config naming one. */
function beforeId(before: unknown): string | undefined {
  if (before === undefined || before === null) return undefined;
  if (typeof before === "string" && before.length > 0) return before;
  const id = (before as { configurable?: { checkpoint_id?: unknown } }).configurable?.checkpoint_id;
  if (typeof id === "string" && id.length > 0) return id;
  throw new GatewayError("VALIDATION_FAILED", "before must be a checkpoint id or {configurable: {checkpoint_id}}", {
    detail: [
      { loc: ["body", "before"], msg: "Input should be a checkpoint id or a config naming one", type: "value_error" },
    ],
  });
}

/** Registers the state and history routes. */
export function registerStateRoutes(app: FastifyInstance, ctx: LangGraphContext): void {
  const tags = ["threads"];

  async function stateOf(
    threadId: string,
    request: Parameters<typeof threadOrThrow>[1],
    checkpoint: CheckpointSelector | undefined,
    subgraphs: boolean,
  ): Promise<WireThreadState> {
    const thread = await threadOrThrow(ctx, request, threadId);
    const state = await ctx.state.state(threadId, thread.metadata, {
      ...(checkpoint === undefined ? {} : { checkpoint }),
      subgraphs,
    });
    if (state === null) throw checkpointNotFound(checkpoint?.checkpoint_id);
    return state;
  }

  app.get<{ Params: ThreadParams; Querystring: StateQuery }>(
    "/threads/:thread_id/state",
    {
      schema: {
        summary: "The thread's state at its head checkpoint",
        description: "A thread that never ran has {values: {}, next: [], tasks: [], checkpoint: null}.",
        tags,
        params: threadParamsSchema,
        querystring: stateQuerySchema,
        response: { 200: threadStateSchema },
        "x-errors": [404],
      },
    },
    async (request) => stateOf(request.params.thread_id, request, undefined, request.query.subgraphs === true),
  );

  app.get<{ Params: ThreadParams & { checkpoint_id: string }; Querystring: StateQuery }>(
    "/threads/:thread_id/state/:checkpoint_id",
    {
      schema: {
        summary: "The thread's state at a checkpoint",
        tags,
        params: checkpointParamsSchema,
        querystring: stateQuerySchema,
        response: { 200: threadStateSchema },
        "x-errors": [404],
      },
    },
    async (request) =>
      stateOf(
        request.params.thread_id,
        request,
        { checkpoint_id: request.params.checkpoint_id },
        request.query.subgraphs === true,
      ),
  );

  app.post<{ Params: ThreadParams; Body: StateAtCheckpointBody }>(
    "/threads/:thread_id/state/checkpoint",
    {
      schema: {
        summary: "The thread's state at a checkpoint object",
        tags,
        params: threadParamsSchema,
        body: stateAtCheckpointSchema,
        response: { 200: threadStateSchema },
        "x-errors": [404],
      },
    },
    async (request) =>
      stateOf(request.params.thread_id, request, selector(request.body.checkpoint), request.body.subgraphs === true),
  );

  app.post<{ Params: ThreadParams; Body: StateUpdateBody }>(
    "/threads/:thread_id/state",
    {
      schema: {
        summary: "Update the thread's state",
        description:
          "Answers {checkpoint, configurable} naming the new checkpoint. Writes a new checkpoint as if as_node had returned values, with the graph of the thread's assistant (metadata assistant_id/graph_id). " +
          "409 while a run is pending or running; 400 when the thread has no graph yet.",
        tags,
        params: threadParamsSchema,
        body: stateUpdateSchema,
        response: { 200: stateUpdateResponseSchema },
        "x-errors": [400, 404, 409],
      },
    },
    async (request) => {
      const threadId = request.params.thread_id;
      const body = request.body ?? {};
      const thread = await threadOrThrow(ctx, request, threadId);
      if (thread.status === "busy") {
        throw new RuntimeError(
          "THREAD_BUSY",
          `Thread ${threadId} has a run in flight. Update state after the run finishes.`,
          { details: { threadId } },
        );
      }
      if (ctx.state.assistantOf(thread.metadata) === undefined) {
        throw new GatewayError(
          "BAD_REQUEST",
          `Thread ${threadId} has no graph yet: run it once, or create it with metadata.graph_id.`,
        );
      }
      const checkpoint = selector(body.checkpoint, body.checkpoint_id);
      if (
        checkpoint?.checkpoint_id !== undefined &&
        !(await ctx.state.hasCheckpoint(threadId, checkpoint.checkpoint_id))
      ) {
        throw checkpointNotFound(checkpoint.checkpoint_id);
      }
      const ref = await ctx.state.update(threadId, thread.metadata, body.values ?? null, {
        ...(body.as_node == null ? {} : { asNode: body.as_node }),
        ...(checkpoint === undefined ? {} : { checkpoint }),
      });
      // The LangGraph API answers {checkpoint}; the SDK's type (and older servers) read {configurable}.
      return {
        checkpoint: ref,
        configurable:
          ref === null
            ? {}
            : { thread_id: ref.thread_id, checkpoint_ns: ref.checkpoint_ns, checkpoint_id: ref.checkpoint_id },
      };
    },
  );

  /** Both history routes: the POST body, or the GET query (`limit` is absent only from an absent body). */
  async function history(
    request: Parameters<typeof threadOrThrow>[1],
    threadId: string,
    body: Partial<NonNullable<HistoryBody>>,
  ): Promise<WireThreadState[]> {
    const before = beforeId(body.before);
    const thread = await threadOrThrow(ctx, request, threadId);
    const checkpoint = selector(body.checkpoint);
    return ctx.state.history(threadId, thread.metadata, {
      limit: body.limit ?? 10,
      ...(before === undefined ? {} : { before }),
      ...(body.metadata == null ? {} : { filter: body.metadata }),
      ...(checkpoint === undefined ? {} : { checkpoint }),
    });
  }

  app.post<{ Params: ThreadParams; Body: HistoryBody }>(
    "/threads/:thread_id/history",
    {
      schema: {
        summary: "The thread's checkpoints, newest first",
        description:
          "[] for a thread that never ran. metadata filters on checkpoint metadata (which records each run's metadata and run_id).",
        tags,
        params: threadParamsSchema,
        body: historySchema,
        response: { 200: { type: "array", items: threadStateSchema } },
        "x-errors": [404],
      },
    },
    async (request) => history(request, request.params.thread_id, request.body ?? {}),
  );

  app.get<{ Params: ThreadParams; Querystring: HistoryQuery }>(
    "/threads/:thread_id/history",
    {
      schema: {
        summary: "The thread's checkpoints, newest first",
        tags,
        params: threadParamsSchema,
        querystring: historyQuerySchema,
        response: { 200: { type: "array", items: threadStateSchema } },
        "x-errors": [404],
      },
    },
    async (request) =>
      history(request, request.params.thread_id, { limit: request.query.limit ?? 10, before: request.query.before }),
  );
}
