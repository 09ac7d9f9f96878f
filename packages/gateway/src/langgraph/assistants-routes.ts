/**
 * `/assistants/...` reads over system and stored assistants (see
 * `AssistantDirectory`); the writes are in `assistant-write-routes.ts`.
 */
import type { FastifyInstance } from "fastify";
import { GatewayError } from "../errors.js";
import type { LangGraphContext } from "./context.js";
import { assistantParamsSchema } from "./request-schemas.js";
import { assistantSchema } from "./response-schemas.js";
import {
  assistantCountSchema,
  assistantSearchSchema,
  type AssistantCountBody,
  type AssistantSearchBody,
} from "./schemas.js";
import { selectFields, toWireAssistant } from "./wire.js";

type AssistantParams = { assistant_id: string };

function filterOf(body: AssistantCountBody | undefined) {
  return {
    ...(body?.graph_id == null ? {} : { graphId: body.graph_id }),
    ...(body?.name == null ? {} : { name: body.name }),
    ...(body?.metadata == null ? {} : { metadata: body.metadata }),
  };
}

const SORT_FIELDS = {
  assistant_id: "assistantId",
  graph_id: "graphId",
  name: "name",
  created_at: "createdAt",
  updated_at: "updatedAt",
} as const;

const graphJsonSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    nodes: { type: "array", items: { type: "object", additionalProperties: true } },
    edges: { type: "array", items: { type: "object", additionalProperties: true } },
  },
} as const;

const schemasSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    graph_id: { type: "string" },
    input_schema: {},
    output_schema: {},
    state_schema: {},
    config_schema: {},
    context_schema: {},
  },
} as const;

/** Registers the assistants routes. */
export function registerAssistantRoutes(app: FastifyInstance, ctx: LangGraphContext): void {
  const tags = ["assistants"];

  app.post<{ Body: AssistantSearchBody }>(
    "/assistants/search",
    {
      schema: {
        summary: "Search assistants",
        description:
          "System assistants and the caller's own (an admin's: everyone's), by graph id, name (case-insensitive substring) and metadata; without sort_by system assistants first, then the caller's newest first. X-Pagination-Total gives the match count.",
        tags,
        body: assistantSearchSchema,
        response: { 200: { type: "array", items: assistantSchema } },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const offset = body?.offset ?? 0;
      const limit = body?.limit ?? 10;
      const { items, total } = await ctx.directory.search(request.principal, {
        ...filterOf(body),
        limit,
        offset,
        ...(body?.sort_by == null ? {} : { sortBy: SORT_FIELDS[body.sort_by] }),
        ...(body?.sort_order == null ? {} : { sortOrder: body.sort_order }),
      });
      reply.header("x-pagination-total", String(total));
      if (offset + limit < total) reply.header("x-pagination-next", String(offset + limit));
      return items.map((a) => selectFields(toWireAssistant(a), body?.select));
    },
  );

  app.post<{ Body: AssistantCountBody }>(
    "/assistants/count",
    {
      schema: { summary: "Count assistants", tags, body: assistantCountSchema, response: { 200: { type: "integer" } } },
    },
    async (request) => ctx.directory.count(request.principal, filterOf(request.body)),
  );

  app.get<{ Params: AssistantParams }>(
    "/assistants/:assistant_id",
    {
      schema: {
        summary: "Get an assistant (by assistant id or graph id); another user's is 404",
        tags,
        params: assistantParamsSchema,
        response: { 200: assistantSchema },
        "x-errors": [404],
      },
    },
    async (request) => toWireAssistant(await ctx.directory.require(request.principal, request.params.assistant_id)),
  );

  app.get<{ Params: AssistantParams }>(
    "/assistants/:assistant_id/graph",
    {
      schema: {
        summary: "The assistant's graph as drawable JSON ({nodes, edges})",
        tags,
        params: assistantParamsSchema,
        querystring: { type: "object", properties: { xray: { description: "Ignored." } } },
        response: { 200: graphJsonSchema },
        "x-errors": [404],
      },
    },
    async (request) => {
      const assistant = await ctx.directory.require(request.principal, request.params.assistant_id);
      if (assistant.system === undefined) throw new GatewayError("NOT_FOUND", `Graph ${assistant.graphId} not found`);
      const graph = ctx.state.graphOf(assistant.system);
      if (graph.getGraphAsync === undefined) return { nodes: [], edges: [] };
      return (await graph.getGraphAsync({})).toJSON();
    },
  );

  app.get<{ Params: AssistantParams }>(
    "/assistants/:assistant_id/schemas",
    {
      schema: {
        summary: "The assistant's schemas",
        description: "graph_id only: JSON Schemas of TypeScript graphs are not derived (every schema is null).",
        tags,
        params: assistantParamsSchema,
        response: { 200: schemasSchema },
        "x-errors": [404],
      },
    },
    async (request) => {
      const assistant = await ctx.directory.require(request.principal, request.params.assistant_id);
      return {
        graph_id: assistant.graphId,
        input_schema: null,
        output_schema: null,
        state_schema: null,
        config_schema: null,
        context_schema: null,
      };
    },
  );
}
