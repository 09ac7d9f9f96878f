/**
 * `/assistants` writes: create, update (a new version), delete, list versions
 * and choose the latest, on the configured `AssistantStore`. The caller owns
 * what it creates; another user's assistant is 404 on every route. System
 * assistants (one per graph, from the server's configuration) are read-only:
 * a write answers 403 naming the reason. (LangGraph's JS server keeps them in
 * its store, where a PATCH or DELETE "works" until the next restart
 * recreates them; refusing is the honest answer.)
 */
import { randomUUID } from "node:crypto";
import { RuntimeError, type AssistantPatch } from "@deerflow/runtime";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ownerScopedFilter } from "../auth/thread-owner.js";
import { GatewayError } from "../errors.js";
import {
  assistantCreateSchema,
  assistantDeleteQuerySchema,
  assistantLatestSchema,
  assistantPatchSchema,
  assistantVersionSchema,
  assistantVersionsSchema,
  type AssistantCreateBody,
  type AssistantDeleteQuery,
  type AssistantLatestBody,
  type AssistantPatchBody,
  type AssistantVersionsBody,
} from "./assistant-schemas.js";
import { assistantScopeOf } from "./assistant-directory.js";
import type { LangGraphContext } from "./context.js";
import { assistantParamsSchema } from "./request-schemas.js";
import { assistantSchema } from "./response-schemas.js";
import { toWireAssistant, toWireAssistantVersion } from "./wire.js";

type AssistantParams = { assistant_id: string };

/** Threads deleted per search page by `delete_threads`. */
const THREAD_PAGE = 100;

/** The graph a body names, which the server must serve. @throws GatewayError `NOT_FOUND` (404). */
function servedGraph(ctx: LangGraphContext, graphId: string): string {
  if (ctx.directory.systemOfGraph(graphId) === undefined)
    throw new GatewayError("NOT_FOUND", `Graph ${graphId} not found`);
  return graphId;
}

/** The members of a create or update body, as a store patch (null means absent). */
function patchOf(body: AssistantPatchBody | AssistantCreateBody): AssistantPatch {
  return {
    ...(body?.config == null ? {} : { config: body.config as Record<string, unknown> }),
    ...(body?.context == null ? {} : { context: body.context }),
    ...(body?.metadata == null ? {} : { metadata: body.metadata }),
    ...(body?.name == null ? {} : { name: body.name }),
    ...(body?.description === undefined ? {} : { description: body.description }),
  };
}

/**
 * Deletes the caller's threads whose latest run used `assistantId` (an admin's: every such thread),
 * cancelling their active runs first.
 */
async function deleteThreadsOf(ctx: LangGraphContext, request: FastifyRequest, assistantId: string): Promise<void> {
  const metadata = ownerScopedFilter(request.principal, { assistant_id: assistantId });
  if (metadata == null) return;
  for (;;) {
    const threads = await ctx.manager.store.searchThreads({ metadata, limit: THREAD_PAGE });
    if (threads.length === 0) return;
    for (const thread of threads) await ctx.manager.deleteThread(thread.threadId);
    if (threads.length < THREAD_PAGE) return;
  }
}

/** Registers the assistant write routes. */
export function registerAssistantWriteRoutes(app: FastifyInstance, ctx: LangGraphContext): void {
  const tags = ["assistants"];
  const { directory } = ctx;

  app.post<{ Body: AssistantCreateBody }>(
    "/assistants",
    {
      schema: {
        summary: "Create an assistant of a graph (owned by the caller)",
        description:
          "409 when assistant_id is taken (by any assistant, a system one included) unless if_exists=do_nothing returns the caller's own. 404 for a graph the server does not serve.",
        tags,
        body: assistantCreateSchema,
        response: { 200: assistantSchema },
        "x-errors": [403, 404, 409],
      },
    },
    async (request) => {
      const body = request.body;
      const store = directory.writableStore();
      const graphId = servedGraph(ctx, body.graph_id);
      const assistantId = body.assistant_id ?? randomUUID();
      const ifExists = body.if_exists ?? "raise";
      const system = directory.systemAssistant(assistantId);
      if (system !== undefined) {
        // A system assistant's id (or a graph id) can never name a stored one; do_nothing returns the system one.
        if (ifExists === "do_nothing" && system.assistantId === assistantId) return toWireAssistant(system);
        throw new RuntimeError("ASSISTANT_EXISTS", `Assistant ${assistantId} already exists`, {
          details: { assistantId },
        });
      }
      const record = await store.create({
        assistantId,
        graphId,
        owner: request.principal.userId,
        ...patchOf(body),
        ifExists,
      });
      return toWireAssistant(directory.served(record));
    },
  );

  app.patch<{ Params: AssistantParams; Body: AssistantPatchBody }>(
    "/assistants/:assistant_id",
    {
      schema: {
        summary: "Update an assistant: a new version (metadata merged; config and context replaced when given)",
        tags,
        params: assistantParamsSchema,
        body: assistantPatchSchema,
        response: { 200: assistantSchema },
        "x-errors": [403, 404],
      },
    },
    async (request) => {
      const { assistant_id: id } = request.params;
      const body = request.body;
      const current = await directory.requireStored(request.principal, id, "modified");
      const patch = patchOf(body);
      if (body?.graph_id != null) patch.graphId = servedGraph(ctx, body.graph_id);
      const record = await directory.writableStore().update(current.assistantId, patch, scopeOf(request));
      return toWireAssistant(directory.served(record));
    },
  );

  app.delete<{ Params: AssistantParams; Querystring: AssistantDeleteQuery }>(
    "/assistants/:assistant_id",
    {
      schema: {
        summary: "Delete an assistant and its versions",
        description:
          "Answers [assistant_id]. delete_threads=true also deletes the caller's threads whose latest run used it (an admin's: all of them).",
        tags,
        params: assistantParamsSchema,
        querystring: assistantDeleteQuerySchema,
        response: { 200: { type: "array", items: { type: "string" } } },
        "x-errors": [403, 404],
      },
    },
    async (request) => {
      const { assistant_id: id } = request.params;
      const current = await directory.requireStored(request.principal, id, "deleted");
      await directory.writableStore().delete(current.assistantId, scopeOf(request));
      if (request.query.delete_threads === true) await deleteThreadsOf(ctx, request, current.assistantId);
      return [current.assistantId];
    },
  );

  app.post<{ Params: AssistantParams; Body: AssistantVersionsBody }>(
    "/assistants/:assistant_id/versions",
    {
      schema: {
        summary: "An assistant's versions, newest first",
        description: "A system assistant has one version, 1.",
        tags,
        params: assistantParamsSchema,
        body: assistantVersionsSchema,
        response: { 200: { type: "array", items: assistantVersionSchema } },
        "x-errors": [404],
      },
    },
    async (request) => {
      const { assistant_id: id } = request.params;
      const body = request.body;
      const assistant = await directory.require(request.principal, id);
      if (assistant.isSystem) {
        // Its one version, unless the page starts past it or the metadata filter (the registry's) excludes it.
        const matches =
          body?.metadata == null ||
          directory.registry
            .search({ metadata: body.metadata, limit: Number.MAX_SAFE_INTEGER })
            .some((a) => a.assistantId === assistant.assistantId);
        if ((body?.offset ?? 0) > 0 || !matches) return [];
        const { assistantId, graphId, name, description, config, context, metadata, version, createdAt } = assistant;
        return [
          toWireAssistantVersion({
            assistantId,
            graphId,
            name,
            description,
            config: { ...config },
            context: { ...context },
            metadata: { ...metadata },
            version,
            createdAt,
          }),
        ];
      }
      const versions = await directory.writableStore().listVersions(
        assistant.assistantId,
        {
          ...(body?.metadata == null ? {} : { metadata: body.metadata }),
          limit: body?.limit ?? 10,
          offset: body?.offset ?? 0,
        },
        scopeOf(request),
      );
      return versions.map(toWireAssistantVersion);
    },
  );

  app.post<{ Params: AssistantParams; Body: AssistantLatestBody }>(
    "/assistants/:assistant_id/latest",
    {
      schema: {
        summary: "Make a version the assistant's current one",
        tags,
        params: assistantParamsSchema,
        body: assistantLatestSchema,
        response: { 200: assistantSchema },
        "x-errors": [403, 404],
      },
    },
    async (request) => {
      const { assistant_id: id } = request.params;
      const current = await directory.requireStored(request.principal, id, "modified");
      const record = await directory
        .writableStore()
        .setLatest(current.assistantId, request.body.version, scopeOf(request));
      return toWireAssistant(directory.served(record));
    },
  );
}

function scopeOf(request: FastifyRequest) {
  return assistantScopeOf(request.principal);
}
