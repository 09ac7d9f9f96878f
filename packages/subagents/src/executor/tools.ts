/** Tool selection of a subagent from its parent's tools. */
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SubagentConfig } from "../types.js";

/**
 * Allow-list (when set) ∩ parent tools, minus the deny-list; `task` is never
 * included whatever the config says — the recursion guard.
 * @param config - the subagent's config
 * @param parentTools - the lead's tools
 * @returns the tools in the parent's order
 */
export function selectSubagentTools(
  config: SubagentConfig,
  parentTools: readonly StructuredToolInterface[],
): StructuredToolInterface[] {
  const allowed = config.tools === undefined ? undefined : new Set(config.tools);
  const denied = new Set([...config.disallowedTools, "task"]);
  return parentTools.filter((t) => (allowed === undefined || allowed.has(t.name)) && !denied.has(t.name));
}
