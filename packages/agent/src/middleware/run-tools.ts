/**
 * Run tools — DeerFlow's per-run tool assembly (`get_available_tools(...,
 * subagent_enabled)`, §1.1), done per model call because the agent is compiled
 * once: tools only some runs get are registered at compile time and removed
 * from `request.tools` for the others, so the model never sees them; a call
 * to a tool the run was not offered is answered with an error result instead
 * of running it.
 *
 * Config keys: none of its own; the filters read the run's (e.g. `subagent_enabled`).
 */
import { ToolMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { readRunOptions, type RunOptions } from "../run/run-options.js";

/** Names of the registered tools a run must not get. */
export type ToolFilter = (run: RunOptions) => Iterable<string> | Promise<Iterable<string>>;

/** Options of {@link createRunToolsMiddleware}. */
export interface RunToolsMiddlewareOptions {
  /** Each filter hides some tools; a tool hidden by any filter is not offered. */
  readonly filters: readonly ToolFilter[];
}

/**
 * The error a call to a tool the run was not offered gets.
 *
 * @param toolName - the tool
 * @returns the text the model reads
 */
export function toolNotOfferedText(toolName: string): string {
  return `Error: Tool '${toolName}' is not available in this run. Use only the tools you were given.`;
}

function nameOf(tool: unknown): string | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : undefined;
}

/**
 * Creates the run-tools middleware.
 *
 * @param options - the filters
 * @returns a `wrapModelCall` / `wrapToolCall` middleware
 * @example
 * ```ts
 * createRunToolsMiddleware({ filters: [(run) => (run.subagentEnabled === false ? ["task"] : [])] });
 * ```
 */
export function createRunToolsMiddleware(options: RunToolsMiddlewareOptions): AgentMiddleware {
  const hiddenFor = async (run: RunOptions): Promise<Set<string>> => {
    const hidden = new Set<string>();
    for (const filter of options.filters) for (const name of await filter(run)) hidden.add(name);
    return hidden;
  };
  return createMiddleware({
    name: "RunToolsMiddleware",
    wrapModelCall: async (request, handler) => {
      const hidden = await hiddenFor(readRunOptions(request.runtime));
      if (hidden.size === 0) return handler(request);
      const tools = request.tools.filter((t) => !hidden.has(nameOf(t) ?? ""));
      return handler(tools.length === request.tools.length ? request : { ...request, tools });
    },
    wrapToolCall: async (request, handler) => {
      const hidden = await hiddenFor(readRunOptions(request.runtime));
      const name = request.toolCall.name;
      if (!hidden.has(name)) return handler(request);
      return new ToolMessage({
        content: toolNotOfferedText(name),
        tool_call_id: request.toolCall.id ?? "",
        name,
        status: "error",
      });
    },
  });
}
