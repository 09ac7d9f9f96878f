/**
 * The MCP tools of a {@link McpToolset} in a LangChain v1 agent, as a
 * middleware: each model call is offered the toolset's current tools (so a
 * changed `extensions_config.json` applies to the next call, without
 * recompiling the agent), and tool calls to them are run here. With deferred
 * discovery on, the model gets `tool_search`, the names in
 * `<available-deferred-tools>`, and the schemas of the tools it promoted.
 */
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "@deerflow/kernel";
import type { McpToolset } from "./mcp-toolset.js";
import {
  TOOL_SEARCH_TOOL_NAME,
  catalogHash,
  createToolSearchTool,
  deferredToolsSection,
  type ToolSearchPromotion,
} from "./tool-search.js";

/** DeerFlow's `tool_search:` block. */
export interface ToolSearchOptions {
  /** Defer every MCP tool. Default false. */
  readonly enabled?: boolean;
  /** Defer anyway when the MCP tools' schemas would take more prompt tokens than this. Default 10000; 0 = never. */
  readonly autoTokenBudget?: number;
}

/** Options of {@link createMcpToolsMiddleware}. */
export interface McpToolsMiddlewareOptions {
  readonly toolset: McpToolset;
  /** Where a failed load is reported (the model call then goes on without MCP tools). */
  readonly logger?: Logger;
  readonly toolSearch?: ToolSearchOptions;
}

/**
 * Estimated prompt tokens of tool schemas (4 characters a token, over their OpenAI function JSON).
 *
 * @param tools - the tools
 * @returns the estimate
 */
export function estimateToolTokens(tools: readonly StructuredToolInterface[]): number {
  let chars = 0;
  for (const t of tools)
    chars += JSON.stringify({
      name: t.name,
      description: t.description,
      parameters: toJsonSchema(t.schema as never),
    }).length;
  return Math.ceil(chars / 4);
}

interface Offer {
  readonly deferred: boolean;
  readonly byName: ReadonlyMap<string, StructuredToolInterface>;
  readonly search?: StructuredToolInterface;
  readonly hash?: string;
  readonly section?: string;
}

function promotedNames(messages: readonly BaseMessage[], hash: string): Set<string> {
  const names = new Set<string>();
  for (const m of messages) {
    if (!ToolMessage.isInstance(m) || m.name !== TOOL_SEARCH_TOOL_NAME) continue;
    const p = m.artifact as ToolSearchPromotion | undefined;
    if (p?.catalogHash === hash && Array.isArray(p.names)) for (const n of p.names) names.add(n);
  }
  return names;
}

/**
 * Creates the middleware.
 *
 * @param options - the toolset and DeerFlow's `tool_search` settings
 * @returns a `wrapModelCall` / `wrapToolCall` middleware named `McpToolsMiddleware`
 * @example
 * ```ts
 * const toolset = new McpToolset({ source: extensionsFileMcpSource("extensions_config.json") });
 * const agent = createAgent({ model, tools: [], middleware: [createMcpToolsMiddleware({ toolset })] });
 * ```
 */
export function createMcpToolsMiddleware(options: McpToolsMiddlewareOptions): AgentMiddleware {
  const { toolset } = options;
  const logger = options.logger ?? silentLogger;
  const budget = options.toolSearch?.autoTokenBudget ?? 10_000;
  const offers = new WeakMap<readonly StructuredToolInterface[], Offer>();
  const clashes = new Set<string>();
  const offerOf = (tools: readonly StructuredToolInterface[]): Offer => {
    let offer = offers.get(tools);
    if (offer !== undefined) return offer;
    const byName = new Map(tools.map((t) => [t.name, t]));
    const deferred =
      tools.length > 0 && (options.toolSearch?.enabled === true || (budget > 0 && estimateToolTokens(tools) > budget));
    offer = deferred
      ? {
          deferred,
          byName,
          search: createToolSearchTool(tools),
          hash: catalogHash(tools),
          section: deferredToolsSection(tools.map((t) => t.name)),
        }
      : { deferred, byName };
    offers.set(tools, offer);
    return offer;
  };

  return createMiddleware({
    name: "McpToolsMiddleware",
    wrapModelCall: async (request, handler) => {
      let tools: readonly StructuredToolInterface[];
      try {
        tools = await toolset.tools();
      } catch (err) {
        logger.warn({ err }, `MCP tools unavailable for this model call: ${(err as Error).message}`);
        return handler(request);
      }
      if (tools.length === 0) return handler(request);
      const offer = offerOf(tools);
      // The agent's own tools win a name clash (an MCP tool may not shadow, e.g., web_search).
      const taken = new Set(request.tools.map((t) => (t as { name?: string }).name));
      const free = (t: StructuredToolInterface): boolean => {
        if (!taken.has(t.name)) return true;
        if (!clashes.has(t.name)) {
          clashes.add(t.name);
          logger.warn(
            { tool: t.name },
            `MCP tool '${t.name}' is not offered: the agent already has a tool of that name`,
          );
        }
        return false;
      };
      if (!offer.deferred) return handler({ ...request, tools: [...request.tools, ...tools.filter(free)] });
      const promoted = promotedNames(request.messages, offer.hash ?? "");
      return handler({
        ...request,
        tools: [
          ...request.tools,
          ...(taken.has(TOOL_SEARCH_TOOL_NAME) ? [] : [offer.search!]),
          ...tools.filter((t) => promoted.has(t.name) && free(t)),
        ],
        systemPrompt: `${request.systemPrompt}\n\n${offer.section}`,
      });
    },
    wrapToolCall: async (request, handler) => {
      const name = request.toolCall.name;
      if (request.tool !== undefined) return handler(request);
      // The model call that offered this tool just checked the source: no signature (file read) per tool call.
      const tools = toolset.loadedTools() ?? (await toolset.tools());
      const offer = offerOf(tools);
      if (name === TOOL_SEARCH_TOOL_NAME && offer.search !== undefined)
        return handler({ ...request, tool: offer.search });
      const tool = offer.byName.get(name);
      return tool === undefined ? handler(request) : handler({ ...request, tool });
    },
  });
}
