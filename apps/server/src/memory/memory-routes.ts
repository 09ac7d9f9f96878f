/**
 * DeerFlow's `/api/memory` routes (§4.6) over a `MemoryManager`, always for
 * the authenticated caller (`request.principal.userId`; a body never names a
 * user). Facts are the default agent's unless `?agent_name=` names another.
 * Bodies are validated by JSON Schema (422 with the issues); the memory
 * errors get DeerFlow's statuses and texts (409 duplicate or evicted, 404
 * unknown fact, 400 empty content or bad confidence, 500 corrupted data, 501
 * an operation the backend lacks).
 */
import type { Principal } from "@deerflow/gateway";
import { MemoryError, type MemoryManager, type MemoryScope } from "@deerflow/memory";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { fromWireDocument, toWireDocument } from "./memory-wire.js";

/** What the routes are built over. */
export interface MemoryRoutesOptions {
  readonly manager: MemoryManager;
  /** `GET /api/memory/config`'s answer. */
  readonly config: () => Record<string, unknown>;
}

const STATUS: Record<string, number> = {
  FACT_DUPLICATE: 409,
  FACT_EVICTED: 409,
  FACT_NOT_FOUND: 404,
  INVALID_INPUT: 400,
  CORRUPTED: 500,
  UNSUPPORTED: 501,
  BACKEND_FAILED: 502,
};

const CATEGORY = { enum: ["preference", "knowledge", "context", "behavior", "goal", "correction", "other"] };
const agentQuery = {
  type: "object",
  properties: { agent_name: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$" } },
  additionalProperties: false,
};
const factParams = {
  type: "object",
  properties: { fact_id: { type: "string", minLength: 1, maxLength: 128 } },
  required: ["fact_id"],
};
const createBody = {
  type: "object",
  additionalProperties: false,
  required: ["content"],
  properties: { content: { type: "string", minLength: 1 }, category: CATEGORY, confidence: { type: "number" } },
};
const patchBody = {
  type: "object",
  additionalProperties: false,
  properties: { content: { type: "string" }, category: CATEGORY, confidence: { type: "number" } },
};
const section = {
  type: "object",
  properties: { summary: { type: "string" }, updatedAt: { type: "string" } },
  required: ["summary"],
};
const importBody = {
  type: "object",
  properties: {
    version: { type: "string" },
    user: { type: "object", additionalProperties: section },
    history: { type: "object", additionalProperties: section },
    facts: { type: "array", maxItems: 10_000, items: { type: "object" } },
  },
};

type Query = { agent_name?: string };

/** OpenAPI text of a route: its summary, the `memory` tag and the error statuses besides 401/422. */
const docs = (summary: string, errors: readonly number[]): Record<string, unknown> => ({
  summary,
  tags: ["memory"],
  ...(errors.length === 0 ? {} : { "x-errors": errors }),
});
type FactParams = { fact_id: string };

function scopeOf(request: FastifyRequest): MemoryScope {
  const principal = (request as FastifyRequest & { principal: Principal }).principal;
  const agentName = (request.query as Query | undefined)?.agent_name;
  return { userId: principal.userId, ...(agentName === undefined ? {} : { agentName }) };
}

/**
 * Runs a route's work and answers memory errors with DeerFlow's status and text.
 * `fallback` replaces the text of a server failure (DeerFlow's route messages).
 */
async function answer(reply: FastifyReply, work: () => Promise<unknown>, fallback?: string): Promise<unknown> {
  try {
    return await work();
  } catch (err) {
    if (!MemoryError.isInstance(err)) {
      if (fallback === undefined) throw err;
      reply.log.error({ err }, fallback);
      return reply.code(500).send({ detail: fallback });
    }
    const status = STATUS[err.code] ?? 500;
    const detail = status === 500 && fallback !== undefined && err.code !== "CORRUPTED" ? fallback : err.message;
    if (status >= 500) reply.log.error({ err }, "memory request failed");
    return reply.code(status).send({ detail });
  }
}

/**
 * The routes plugin (mount under `/api`).
 *
 * @param options - the manager and the config view
 * @returns the Fastify plugin
 */
export function memoryRoutes(options: MemoryRoutesOptions): FastifyPluginAsync {
  const { manager } = options;
  const doc = async (scope: MemoryScope) => toWireDocument(await manager.get(scope));
  return async (app) => {
    const query = { querystring: agentQuery };
    app.get(
      "/memory",
      {
        schema: {
          ...query,
          ...docs("The caller's memory: summaries and facts", [500, 501]),
        },
      },
      (req, reply) => answer(reply, () => doc(scopeOf(req))),
    );
    app.post(
      "/memory/reload",
      {
        schema: {
          ...query,
          ...docs("Read the caller's memory again from the store", [500]),
        },
      },
      (req, reply) => answer(reply, () => doc(scopeOf(req))),
    );
    app.delete(
      "/memory",
      { schema: { ...query, ...docs("Clear the caller's summaries and facts", [500]) } },
      (req, reply) =>
        answer(reply, async () => toWireDocument(await manager.clear(scopeOf(req))), "Failed to clear memory data."),
    );
    app.post<{ Body: { content: string; category?: string; confidence?: number } }>(
      "/memory/facts",
      { schema: { ...query, body: createBody, ...docs("Add a fact", [400, 409]) } },
      (req, reply) =>
        answer(reply, async () => {
          const scope = scopeOf(req);
          const { content, category, confidence } = req.body;
          await manager.addFact(scope, {
            content,
            category: (category ?? "context") as never,
            confidence: confidence ?? 0.5,
          });
          return doc(scope);
        }),
    );
    app.patch<{ Params: FactParams; Body: { content?: string; category?: string; confidence?: number } }>(
      "/memory/facts/:fact_id",
      {
        schema: {
          ...query,
          params: factParams,
          body: patchBody,
          ...docs("Change a fact; omitted fields are kept", [400, 404, 409]),
        },
      },
      (req, reply) =>
        answer(reply, async () => {
          const scope = scopeOf(req);
          const { content, category, confidence } = req.body;
          await manager.updateFact(scope, req.params.fact_id, {
            ...(content === undefined ? {} : { content }),
            ...(category === undefined ? {} : { category: category as never }),
            ...(confidence === undefined ? {} : { confidence }),
          });
          return doc(scope);
        }),
    );
    app.delete<{ Params: FactParams }>(
      "/memory/facts/:fact_id",
      { schema: { ...query, params: factParams, ...docs("Delete a fact", [404]) } },
      (req, reply) =>
        answer(reply, async () => {
          const scope = scopeOf(req);
          await manager.deleteFact(scope, req.params.fact_id);
          return doc(scope);
        }),
    );
    app.get(
      "/memory/export",
      {
        schema: {
          ...query,
          ...docs("The caller's memory in the import/export format", [500]),
        },
      },
      (req, reply) => answer(reply, () => doc(scopeOf(req))),
    );
    app.post<{ Body: Record<string, unknown> }>(
      "/memory/import",
      {
        schema: {
          ...query,
          body: importBody,
          ...docs("Replace the caller's memory with an exported document", [400, 500]),
        },
      },
      (req, reply) =>
        answer(
          reply,
          async () => toWireDocument(await manager.importMemory(scopeOf(req), fromWireDocument(req.body))),
          "Failed to import memory data.",
        ),
    );
    app.get("/memory/config", { schema: { ...docs("The memory settings in effect", []) } }, async () =>
      options.config(),
    );
    app.get(
      "/memory/status",
      {
        schema: {
          ...query,
          ...docs("The memory settings and the caller's memory", [500]),
        },
      },
      (req, reply) => answer(reply, async () => ({ config: options.config(), data: await doc(scopeOf(req)) })),
    );
  };
}
