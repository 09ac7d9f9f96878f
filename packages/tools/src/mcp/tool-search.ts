/**
 * Deferred tool discovery (DeerFlow §2.5): the model sees only the names of
 * deferred tools in `<available-deferred-tools>` and fetches schemas with
 * `tool_search`, which promotes what it returns. Promotions are read back from
 * the thread's own `tool_search` results (their artifact), so they persist with
 * the conversation and need no extra state channel; a promotion counts only
 * for the catalog (hash of names and schemas) it was made against.
 */
import { createHash } from "node:crypto";
import { DynamicStructuredTool, type StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";

/** The tool's name. */
export const TOOL_SEARCH_TOOL_NAME = "tool_search";

/** At most this many tools per search (DeerFlow). */
export const TOOL_SEARCH_MAX_RESULTS = 5;

/** The artifact of a `tool_search` result: what it promoted. */
export interface ToolSearchPromotion {
  readonly catalogHash: string;
  readonly names: readonly string[];
}

/** An OpenAI function schema of a tool. */
interface FunctionSchema {
  readonly type: "function";
  readonly function: { readonly name: string; readonly description: string; readonly parameters: unknown };
}

function functionSchema(t: StructuredToolInterface): FunctionSchema {
  return {
    type: "function",
    function: { name: t.name, description: t.description, parameters: toJsonSchema(t.schema as never) },
  };
}

/**
 * The catalog hash: sha256 of the sorted names and schemas, first 16 hex digits.
 *
 * @param tools - the deferred tools
 * @returns the hash
 */
export function catalogHash(tools: readonly StructuredToolInterface[]): string {
  const entries = [...tools].sort((a, b) => a.name.localeCompare(b.name)).map((t) => functionSchema(t));
  return createHash("sha256").update(JSON.stringify(entries)).digest("hex").slice(0, 16);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * The prompt section listing deferred tools.
 *
 * @param names - the deferred tools' names
 * @returns `<available-deferred-tools>` with the sorted, HTML-escaped names one per line
 */
export function deferredToolsSection(names: readonly string[]): string {
  const lines = [...names].sort().map(escapeHtml);
  return `<available-deferred-tools>\n${lines.join("\n")}\n</available-deferred-tools>`;
}

function safeRegex(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "gi");
  } catch {
    return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi");
  }
}

const count = (re: RegExp, text: string): number => text.match(re)?.length ?? 0;

/**
 * Finds tools for a query: `select:a,b` (exact names), `+req rest` (names
 * containing `req`, ranked by matches of `rest`), or a case-insensitive regex
 * over name and description (a name hit scores 2, a description hit 1; an
 * invalid regex is matched literally).
 *
 * @param query - the model's query
 * @param tools - the deferred tools
 * @returns at most {@link TOOL_SEARCH_MAX_RESULTS} tools, best first
 */
export function searchTools(query: string, tools: readonly StructuredToolInterface[]): StructuredToolInterface[] {
  const q = query.trim();
  if (q.startsWith("select:")) {
    const wanted = q
      .slice("select:".length)
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    return wanted
      .map((n) => tools.find((t) => t.name === n))
      .filter((t): t is StructuredToolInterface => t !== undefined)
      .slice(0, TOOL_SEARCH_MAX_RESULTS);
  }
  let candidates = [...tools];
  let rest = q;
  if (q.startsWith("+")) {
    const [required = "", ...others] = q.slice(1).split(/\s+/);
    candidates = candidates.filter((t) => t.name.toLowerCase().includes(required.toLowerCase()));
    rest = others.join(" ");
    if (rest === "") return candidates.slice(0, TOOL_SEARCH_MAX_RESULTS);
    const re = safeRegex(rest);
    return candidates
      .map((t) => ({ t, score: count(re, `${t.name} ${t.description}`) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, TOOL_SEARCH_MAX_RESULTS)
      .map((x) => x.t);
  }
  const re = safeRegex(rest);
  return candidates
    .map((t) => ({ t, score: (count(re, t.name) > 0 ? 2 : 0) + (count(re, t.description) > 0 ? 1 : 0) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, TOOL_SEARCH_MAX_RESULTS)
    .map((x) => x.t);
}

/**
 * The `tool_search` tool over a set of deferred tools.
 *
 * @param deferred - the tools whose schemas it hands out
 * @returns the tool; its result is a JSON array of OpenAI function schemas (or DeerFlow's "No tools found" text),
 *   with the promotion as artifact
 */
export function createToolSearchTool(deferred: readonly StructuredToolInterface[]): StructuredToolInterface {
  const hash = catalogHash(deferred);
  return new DynamicStructuredTool({
    func: async ({ query }: { query: string }) => {
      const found = searchTools(query, deferred);
      const promotion: ToolSearchPromotion = { catalogHash: hash, names: found.map((t) => t.name) };
      if (found.length === 0) return [`No tools found matching: ${query}`, promotion];
      return [JSON.stringify(found.map(functionSchema)), promotion];
    },
    name: TOOL_SEARCH_TOOL_NAME,
    description:
      "Fetch the full schemas of deferred tools listed in <available-deferred-tools> so you can call them. " +
      'Query forms: "select:name1,name2" for exact names; "+keyword rest" to require a keyword in the name; ' +
      "otherwise a regular expression over tool names and descriptions. Returns at most 5 tools.",
    schema: {
      type: "object",
      properties: { query: { type: "string", description: "What to look for (see the forms above)." } },
      required: ["query"],
    },
    responseFormat: "content_and_artifact",
  });
}
