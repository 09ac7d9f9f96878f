/**
 * `/threads` and `/threads/:thread_id`: thread records (run store) with their
 * values and interrupts (checkpointer).
 */
import { randomUUID } from "node:crypto";
import type { ThreadRecord, ThreadSearchQuery } from "@deerflow/runtime";
import type { FastifyInstance } from "fastify";
import type { Principal } from "../auth/principal.js";
import {
  THREAD_OWNER_KEY,
  checkOwnerClaim,
  mayAccessThread,
  ownerMetadataOf,
  ownerScopedFilter,
} from "../auth/thread-owner.js";
import { threadParamsSchema } from "../schemas.js";
import { authorize, threadExists, threadNotFound, threadOrThrow, type LangGraphContext } from "./context.js";
import { threadSchema } from "./response-schemas.js";
import {
  threadCountSchema,
  threadCreateSchema,
  threadPatchSchema,
  threadSearchSchema,
  type ThreadCountBody,
  type ThreadCreateBody,
  type ThreadPatchBody,
  type ThreadSearchBody,
} from "./schemas.js";
import { emptyThreadState } from "./state-graph.js";
import { selectFields, toWireThread } from "./wire.js";

type ThreadParams = { thread_id: string };

const SORT_FIELDS = {
  thread_id: "threadId",
  status: "status",
  created_at: "createdAt",
  updated_at: "updatedAt",
} as const;

/**
 * The store filter of a search or count: the body's, limited to the caller's
 * threads (see `ownerScopedFilter`); null when it can match nothing.
 */
function filterOf(
  principal: Principal,
  body: Pick<NonNullable<ThreadSearchBody>, "metadata" | "ids" | "status"> | null | undefined,
): Omit<ThreadSearchQuery, "limit" | "offset" | "sortBy" | "sortOrder"> | null {
  const metadata = ownerScopedFilter(principal, body?.metadata);
  if (metadata === null) return null;
  return {
    ...(metadata === undefined ? {} : { metadata }),
    ...(body?.ids == null ? {} : { ids: body.ids }),
    ...(body?.status == null ? {} : { status: body.status }),
  };
}

/** Registers the thread CRUD routes. */
export function registerThreadRoutes(app: FastifyInstance, ctx: LangGraphContext): void {
  const tags = ["threads"];
  const store = ctx.manager.store;

  /** The wire thread: the record plus the state its assistant's graph reads. */
  async function wireThread(thread: ThreadRecord): Promise<Record<string, unknown>> {
    const state = (await ctx.state.state(thread.threadId, thread.metadata)) ?? emptyThreadState();
    return toWireThread(thread, state);
  }

  app.post<{ Body: ThreadCreateBody }>(
    "/threads",
    {
      schema: {
        summary: "Create a thread",
        description:
          "thread_id defaults to a new UUID. An existing id answers 409 unless if_exists is do_nothing (then the existing thread, when it is the caller's). " +
          "With authentication on, metadata.owner is set to the caller's user id (403 when the body names another).",
        tags,
        body: threadCreateSchema,
        response: { 200: threadSchema },
        "x-errors": [403, 409],
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const threadId = body.thread_id ?? randomUUID();
      const owner = ownerMetadataOf(request.principal);
      checkOwnerClaim(request.principal, body.metadata, owner[THREAD_OWNER_KEY]);
      await authorize(ctx, request, threadId);
      const thread = await store.createThread({
        threadId,
        metadata: { ...body.metadata, ...owner },
        ifExists: body.if_exists ?? "raise",
      });
      // do_nothing on another user's id: answered as raise would, never with their thread.
      if (!mayAccessThread(request.principal, thread.metadata)) throw threadExists(threadId);
      return wireThread(thread);
    },
  );

  app.post<{ Body: ThreadSearchBody }>(
    "/threads/search",
    {
      schema: {
        summary: "Search threads",
        description:
          "By metadata (JSON containment), ids and status; newest first unless sort_by/sort_order. X-Pagination-Total gives the match count. " +
          "A non-admin caller finds only its own threads (metadata.owner).",
        tags,
        body: threadSearchSchema,
        response: { 200: { type: "array", items: threadSchema } },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const filter = filterOf(request.principal, body);
      const limit = body?.limit ?? 10;
      const offset = body?.offset ?? 0;
      if (filter === null) {
        reply.header("x-pagination-total", "0");
        return [];
      }
      const [threads, total] = await Promise.all([
        store.searchThreads({
          ...filter,
          limit,
          offset,
          ...(body?.sort_by == null ? {} : { sortBy: SORT_FIELDS[body.sort_by] }),
          ...(body?.sort_order == null ? {} : { sortOrder: body.sort_order }),
        }),
        store.countThreads(filter),
      ]);
      reply.header("x-pagination-total", String(total));
      if (offset + limit < total) reply.header("x-pagination-next", String(offset + limit));
      const visible: ThreadRecord[] = [];
      for (const thread of threads) {
        try {
          await authorize(ctx, request, thread.threadId);
          visible.push(thread);
        } catch {
          // another user's thread: not listed
        }
      }
      return Promise.all(visible.map(async (t) => selectFields(await wireThread(t), body?.select)));
    },
  );

  app.post<{ Body: ThreadCountBody }>(
    "/threads/count",
    { schema: { summary: "Count threads", tags, body: threadCountSchema, response: { 200: { type: "integer" } } } },
    async (request) => {
      const filter = filterOf(request.principal, request.body);
      return filter === null ? 0 : store.countThreads(filter);
    },
  );

  app.get<{ Params: ThreadParams }>(
    "/threads/:thread_id",
    {
      schema: {
        summary: "Get a thread",
        description: "Status from the run store; values and interrupts from the head checkpoint.",
        tags,
        params: threadParamsSchema,
        querystring: { type: "object", properties: { include: { description: "Ignored." } } },
        response: { 200: threadSchema },
        "x-errors": [404],
      },
    },
    async (request) => wireThread(await threadOrThrow(ctx, request, request.params.thread_id)),
  );

  app.patch<{ Params: ThreadParams; Body: ThreadPatchBody }>(
    "/threads/:thread_id",
    {
      schema: {
        summary: "Merge metadata into a thread",
        description: "metadata.owner cannot change (403).",
        tags,
        params: threadParamsSchema,
        body: threadPatchSchema,
        response: { 200: threadSchema },
        "x-errors": [403, 404],
      },
    },
    async (request) => {
      const current = await threadOrThrow(ctx, request, request.params.thread_id);
      checkOwnerClaim(request.principal, request.body?.metadata, current.metadata[THREAD_OWNER_KEY]);
      const thread = await store.updateThread(request.params.thread_id, { metadata: request.body?.metadata ?? {} });
      return wireThread(thread);
    },
  );

  app.delete<{ Params: ThreadParams }>(
    "/threads/:thread_id",
    {
      schema: {
        summary: "Delete a thread",
        description:
          "Cancels its active runs (interrupt, waiting for them), then deletes it, its runs and its checkpoints. 204.",
        tags,
        params: threadParamsSchema,
        response: { 204: { description: "Deleted." } },
        "x-errors": [404],
      },
    },
    async (request, reply) => {
      const threadId = request.params.thread_id;
      await threadOrThrow(ctx, request, threadId);
      if (!(await ctx.manager.deleteThread(threadId))) throw threadNotFound(threadId);
      return reply.code(204).send();
    },
  );
}
