/**
 * `/assistants/...`: the fixed registry, read-only.
 */
import type { FastifyInstance } from "fastify";
import type { RegisteredAssistant } from "./assistant-registry.js";
import { assistantOrThrow, type LangGraphContext } from "./context.js";
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

function queryOf(body: AssistantCountBody | undefined) {
  return {
    ...(body?.graph_id == null ? {} : { graphId: body.graph_id }),
    ...(body?.name == null ? {} : { name: body.name }),
    ...(body?.metadata == null ? {} : { metadata: body.metadata }),
  };
}

function sortKey(
  assistant: RegisteredAssistant,
  field: NonNullable<NonNullable<AssistantSearchBody>["sort_by"]>,
): string {
  switch (field) {
    case "assistant_id":
      return assistant.assistantId;
    case "graph_id":
      return assistant.graphId;
    case "name":
      return assistant.name ?? assistant.graphId;
    default:
      return assistant.createdAt;
  }
}

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
          "By graph id, name (case-insensitive substring) and metadata; registration order unless sort_by. X-Pagination-Total gives the match count.",
        tags,
        body: assistantSearchSchema,
        response: { 200: { type: "array", items: assistantSchema } },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const matches = ctx.assistants.search({ ...queryOf(body), limit: Number.MAX_SAFE_INTEGER });
      const sortBy = body?.sort_by;
      if (sortBy != null) {
        const sign = body?.sort_order === "desc" ? -1 : 1;
        matches.sort(
          (a, b) =>
            sign * (sortKey(a, sortBy) < sortKey(b, sortBy) ? -1 : sortKey(a, sortBy) > sortKey(b, sortBy) ? 1 : 0),
        );
      }
      const offset = body?.offset ?? 0;
      const limit = body?.limit ?? 10;
      const page = matches.slice(offset, offset + limit);
      reply.header("x-pagination-total", String(matches.length));
      if (offset + limit < matches.length) reply.header("x-pagination-next", String(offset + limit));
      return page.map((a) => selectFields(toWireAssistant(a), body?.select));
    },
  );

  app.post<{ Body: AssistantCountBody }>(
    "/assistants/count",
    {
      schema: { summary: "Count assistants", tags, body: assistantCountSchema, response: { 200: { type: "integer" } } },
    },
    async (request) => ctx.assistants.count(queryOf(request.body)),
  );

  app.get<{ Params: AssistantParams }>(
    "/assistants/:assistant_id",
    {
      schema: {
        summary: "Get an assistant (by assistant id or graph id)",
        tags,
        params: assistantParamsSchema,
        response: { 200: assistantSchema },
        "x-errors": [404],
      },
    },
    async (request) => toWireAssistant(assistantOrThrow(ctx, request.params.assistant_id)),
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
      const assistant = assistantOrThrow(ctx, request.params.assistant_id);
      const graph = ctx.state.graphOf(assistant);
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
      const assistant = assistantOrThrow(ctx, request.params.assistant_id);
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
