/**
 * Memory tools (DeerFlow's experimental `mode: tool`): the model searches and
 * edits the user's memory itself — `memory_search`, `memory_add`,
 * `memory_update`, `memory_delete`. The scope is the run's (from its config,
 * as the middleware reads it), never a tool argument. Every result is JSON; a
 * refused or unsupported operation is `{"error": "<text>"}`, so the model can
 * read what went wrong.
 */
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { isDeerflowError } from "../errors.js";
import type { MemoryManager } from "../memory-manager.js";
import { memoryScopeOf, type RunScopeSource } from "../memory-scope-of.js";
import { FACT_CATEGORIES, type FactCategory, type MemoryFact, type MemoryScope } from "../types.js";

/** Options of {@link createMemoryTools}. */
export interface MemoryToolsOptions {
  readonly manager: MemoryManager;
  /** Reads the scope from a call's config. Default: `memoryScopeOf` with these defaults. */
  readonly scopeOf?: (config: RunScopeSource) => MemoryScope | undefined;
  readonly defaultUserId?: string;
  readonly agentName?: string;
}

const wire = (f: MemoryFact) => ({ id: f.id, content: f.content, category: f.category, confidence: f.confidence });

/**
 * @param options - manager and scope rules
 * @returns the four tools
 */
export function createMemoryTools(options: MemoryToolsOptions): StructuredToolInterface[] {
  const { manager } = options;
  const scopeOf =
    options.scopeOf ??
    ((config: RunScopeSource) =>
      memoryScopeOf(config, {
        ...(options.defaultUserId === undefined ? {} : { userId: options.defaultUserId }),
        ...(options.agentName === undefined ? {} : { agentName: options.agentName }),
      }));

  const run =
    <A>(work: (scope: MemoryScope, args: A) => Promise<unknown>) =>
    async (args: A, config?: RunScopeSource): Promise<string> => {
      const scope = scopeOf(config ?? {});
      if (scope === undefined) return JSON.stringify({ error: "Memory is not available in this run (no user)." });
      try {
        return JSON.stringify(await work(scope, args));
      } catch (err) {
        if (isDeerflowError(err)) return JSON.stringify({ error: err.message });
        throw err;
      }
    };

  const category = { type: "string", enum: FACT_CATEGORIES.filter((c) => c !== "other") } as const;
  return [
    tool(
      run<{ query: string; limit?: number }>(async (scope, { query, limit }) => ({
        facts: (await manager.search(scope, query, { limit: Math.min(Math.max(limit ?? 5, 1), 20) })).map(wire),
      })),
      {
        name: "memory_search",
        description: "Search what you remember about the user. Returns matching facts, best first.",
        schema: {
          type: "object",
          properties: {
            query: { type: "string", description: "Words to look for." },
            limit: { type: "integer", minimum: 1, maximum: 20, description: "Most facts (default 5)." },
          },
          required: ["query"],
        },
      },
    ),
    tool(
      run<{ content: string; category?: FactCategory; confidence?: number }>(async (scope, args) => ({
        fact: wire(
          await manager.addFact(scope, {
            content: args.content,
            category: args.category ?? "context",
            confidence: args.confidence ?? 0.8,
          }),
        ),
      })),
      {
        name: "memory_add",
        description: "Remember a durable fact about the user (a preference, goal, correction...).",
        schema: {
          type: "object",
          properties: {
            content: { type: "string", description: "The fact, one sentence." },
            category,
            confidence: { type: "number", minimum: 0, maximum: 1 },
          },
          required: ["content"],
        },
      },
    ),
    tool(
      run<{ id: string; content?: string; category?: FactCategory; confidence?: number }>(
        async (scope, { id, ...patch }) => ({ fact: wire(await manager.updateFact(scope, id, patch)) }),
      ),
      {
        name: "memory_update",
        description: "Change a remembered fact (by its id from memory_search).",
        schema: {
          type: "object",
          properties: {
            id: { type: "string" },
            content: { type: "string" },
            category,
            confidence: { type: "number", minimum: 0, maximum: 1 },
          },
          required: ["id"],
        },
      },
    ),
    tool(
      run<{ id: string }>(async (scope, { id }) => {
        await manager.deleteFact(scope, id);
        return { deleted: id };
      }),
      {
        name: "memory_delete",
        description: "Forget a remembered fact (by its id from memory_search).",
        schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      },
    ),
  ] as StructuredToolInterface[];
}
