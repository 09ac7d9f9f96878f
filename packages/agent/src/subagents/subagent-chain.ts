/**
 * The subagents' chain: the runtime part of the lead's, DeerFlow's rows 1–4
 * and 6–13 ("Subagents reuse rows 1–4 and 6–13, including DanglingToolCall but
 * without Uploads"). It selects entries of {@link LEAD_CHAIN} by name, so each
 * middleware has one definition and the lead's order; nothing is copied.
 *
 * Selected: tool-error handling, input sanitisation, the tool-output budget,
 * tool-result sanitisation, the MCP tools (the lead's toolset, restricted: see
 * below), tool authorization (the lead's role), the sandbox (the subagent's run holds its own lease
 * on the thread's sandbox session: the same sandbox as the lead), dangling
 * tool calls, LLM error handling (retries, circuit breaker, fallback models),
 * the guardrail provider and read-before-write (DeerFlow's rows 4 thread data,
 * 10 sandbox audit and 12 tool progress have no entry in our lead chain: the
 * sandbox provides the thread's folders); then DeerFlow's subagent tail
 * (`build_subagent_runtime_middlewares`): summarization (the lead's
 * `summarization:` switch and settings), loop detection (a degenerate
 * subagent tool loop is warned, then stopped, instead of running to its
 * `max_turns`), the token budget and the safety finish-reason guard. Not
 * selected: the lead's run choices (model, prompt, tools: a subagent has its
 * own), uploads, artifacts (`present_files` is the lead's), plan mode, token
 * usage, title, the subagent limit, the model-length guard, the terminal
 * response retry and clarification.
 *
 * Where the tail differs from DeerFlow's: its entries keep the lead chain's
 * order (DeerFlow appends summarization after the guards; both orders are
 * equivalent, as summarization works before the model call and the guards
 * after it); the token budget follows the lead's `token_budget:` switch (off by
 * default) where DeerFlow has a separate `subagents.token_budget` that is on by
 * default; `view_image` is not offered to subagents (its tool would bypass a
 * subagent's `tools` allowlist); a subagent's stop reasons (`loop_capped`,
 * `token_capped`) are logged, not stamped on the lead's run, whose run report
 * a subagent's run does not carry; DeerFlow's skill activation and date
 * reminder have no entry in our lead chain.
 *
 * Deliberate differences: the human-approval step (ours, under `guardrails:`)
 * is not selected, because a subagent's run has no checkpointer to pause on;
 * the tools that need approval are withheld from subagents instead (see
 * `createRunTaskTool`), so delegating never bypasses an approval. That holds
 * for the tools the MCP middleware adds per model call too: this chain's
 * `McpToolsMiddleware` entry neither offers nor runs a tool named in
 * `guardrails.require_approval`, and `createRunTaskTool` further restricts it
 * per task to the subagent's `tools` allowlist and `disallowed_tools`.
 */
import { LEAD_CHAIN, type LeadChainEntry } from "../chain/lead-chain.js";
import { AgentError } from "../errors.js";
import { restrictMiddlewareTools } from "./restrict-middleware-tools.js";

/** The entry that adds tools per model call (and runs their calls), so the subagents' tool filters must reach it. */
export const MCP_TOOLS_ENTRY = "McpToolsMiddleware";

/** Names of the lead-chain entries subagents get (in the lead chain's order). */
export const SUBAGENT_ENTRY_NAMES: ReadonlySet<string> = new Set([
  "ToolErrorHandlingMiddleware",
  "InputSanitizationMiddleware",
  "ToolOutputBudgetMiddleware",
  "ToolResultSanitizationMiddleware",
  "McpToolsMiddleware",
  // The lead's role holds for its subagents (their run carries configurable.user_role).
  "AuthorizationMiddleware",
  "SandboxMiddleware",
  "DanglingToolCallMiddleware",
  "LlmErrorHandlingMiddleware",
  "GuardrailMiddleware",
  "ReadBeforeWriteMiddleware",
  // DeerFlow's subagent tail.
  "SummarizationMiddleware",
  "LoopDetectionMiddleware",
  "TokenBudgetMiddleware",
  "SafetyFinishReasonMiddleware",
]);

/**
 * Selects the named entries of a chain, in its order.
 *
 * @param chain - the lead chain
 * @param names - the entries to keep
 * @returns the entries
 * @throws {@link AgentError} `CONFIG_INVALID` when a name is not in the chain (a renamed entry must not silently drop out)
 */
export function selectChainEntries(
  chain: readonly LeadChainEntry[],
  names: ReadonlySet<string>,
): readonly LeadChainEntry[] {
  const present = new Set(chain.map((e) => e.name));
  const missing = [...names].filter((n) => !present.has(n));
  if (missing.length > 0) {
    throw new AgentError("CONFIG_INVALID", `The chain has no entries named ${missing.join(", ")}`, {
      details: { missing },
    });
  }
  return chain.filter((e) => names.has(e.name));
}

/**
 * A lead-chain entry whose tools a subagent may get only when no human approval is required for them.
 *
 * @param entry - an entry that offers tools per model call (the MCP tools)
 * @returns the entry, its middleware restricted to tools outside `guardrails.requireApproval`
 */
function withoutApprovalGatedTools(entry: LeadChainEntry): LeadChainEntry {
  return {
    name: entry.name,
    create: (parts) => {
      const middleware = entry.create(parts);
      const gated = new Set(parts.options.guardrails?.requireApproval ?? []);
      return middleware === undefined || gated.size === 0
        ? middleware
        : restrictMiddlewareTools(middleware, (name) => !gated.has(name));
    },
  };
}

/** The entry that checks tools (and the lead's model) against the run's role. */
const AUTHORIZATION_ENTRY = "AuthorizationMiddleware";

/**
 * The authorization entry checking tools only: a subagent's model is its own (its config's, or the
 * lead's), not the run's `model_name` the lead's check reads.
 *
 * @param entry - the lead's authorization entry
 * @returns the entry, created without `modelNames`
 */
function withoutModelChecks(entry: LeadChainEntry): LeadChainEntry {
  return {
    name: entry.name,
    create: (parts) => {
      const authorization = parts.options.authorization;
      if (authorization?.modelNames === undefined) return entry.create(parts);
      const { modelNames: _lead, ...toolsOnly } = authorization;
      return entry.create({ ...parts, options: { ...parts.options, authorization: toolsOnly } });
    },
  };
}

/**
 * The subagents' chain: {@link SUBAGENT_ENTRY_NAMES} of {@link LEAD_CHAIN}, the MCP tools without the
 * approval-gated ones, authorization without the lead's model check.
 */
export const SUBAGENT_CHAIN: readonly LeadChainEntry[] = selectChainEntries(LEAD_CHAIN, SUBAGENT_ENTRY_NAMES).map(
  (entry) =>
    entry.name === MCP_TOOLS_ENTRY
      ? withoutApprovalGatedTools(entry)
      : entry.name === AUTHORIZATION_ENTRY
        ? withoutModelChecks(entry)
        : entry,
);
