/**
 * Contracts of `@deerflow/subagents`. The executor runs one subagent task;
 * the `task` tool (lead side) turns it into a tool result and stream events.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";

/** A subagent type the lead can delegate to. */
export interface SubagentConfig {
  /** Unique id, e.g. `general-purpose`. */
  readonly name: string;
  /** Shown to the lead; only the first line goes into the prompt. */
  readonly description: string;
  readonly systemPrompt?: string;
  /** Allow-list of tool names; `undefined` inherits every parent tool. */
  readonly tools?: readonly string[];
  /** Deny-list applied after the allow-list; always contains `task`. */
  readonly disallowedTools: readonly string[];
  /** `inherit` (the parent's model) or a model name the executor can resolve. */
  readonly model: string;
  /** LangGraph recursion limit of the subagent's run. */
  readonly maxTurns: number;
  /** Wall-clock limit of one task. */
  readonly timeoutMs: number;
}

/** Lifecycle of a subagent task. */
export type SubagentStatus = "pending" | "running" | "completed" | "failed" | "cancelled" | "timed_out";

/** Terminal statuses. */
export type SubagentTerminalStatus = Exclude<SubagentStatus, "pending" | "running">;

/** Cumulative token usage of a task. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/** One delegated task. */
export interface SubagentTask {
  /** The lead's tool-call id; also the task id in events. */
  readonly id: string;
  readonly subagentType: string;
  readonly description: string;
  readonly prompt: string;
  /** Overrides the config's `maxTurns` when smaller. */
  readonly maxTurns?: number;
  /** Carried in every log line of the task. */
  readonly traceId: string;
}

/** What happened while a task ran, in order. */
export type SubagentProgress =
  | { readonly kind: "started"; readonly taskId: string; readonly modelName: string | null }
  /** One per new AI or tool message of the subagent, 1-based index. */
  | {
      readonly kind: "message";
      readonly taskId: string;
      readonly message: BaseMessage;
      readonly index: number;
      readonly usage: TokenUsage | null;
    };

/** Outcome of a task (exactly one per task). */
export interface SubagentResult {
  readonly taskId: string;
  readonly status: SubagentTerminalStatus;
  /** Text of the final AI message when completed. */
  readonly result?: string;
  /** Why it did not complete. */
  readonly error?: string;
  readonly usage: TokenUsage | null;
  readonly modelName: string | null;
  /** Every AI and tool message the subagent produced. */
  readonly messages: readonly BaseMessage[];
}

/**
 * The run a task works for, carried into the subagent's run config as
 * `configurable.thread_id`, `user_id`, `user_role` and `run_id`, so the subagent's tools and
 * middleware resolve the same per-thread resources (its sandbox, its outputs
 * folder) as the lead. With a scope the subagent's run carries these keys only:
 * none of the lead's checkpoint coordinates, so it never writes into the
 * lead's checkpoints (DeerFlow compiles subagents without a checkpointer).
 */
export interface SubagentRunScope {
  readonly threadId?: string;
  readonly userId?: string;
  /** The role the lead's run was authenticated with (`configurable.user_role`): the subagent's tools are checked against it. */
  readonly userRole?: string;
  /**
   * The subagent run's id. Give it one of its own (not the lead's), so whatever
   * is held per run, like a sandbox lease, is held and released per task.
   */
  readonly runId?: string;
}

/** What the executor needs from the lead's run to build a subagent. */
export interface SubagentParentContext {
  /** The lead's model (for `model: "inherit"`). */
  readonly model: BaseChatModel;
  /** The lead's tools (subagents pick from these; `task` is always removed). */
  readonly tools: readonly StructuredToolInterface[];
  /** Aborting it (the parent run was cancelled) cancels the task. */
  readonly signal?: AbortSignal;
  /** Thread, user and run of the subagent's run; without it the run inherits the caller's config. */
  readonly scope?: SubagentRunScope;
}
