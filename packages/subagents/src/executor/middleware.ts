/**
 * The middleware a subagent's agent is built with. A host that runs its lead
 * agent with a middleware chain hands the runtime part of that chain to its
 * subagents here (the lead's sanitisation, retries, tool-error handling...),
 * so a subagent is held to the same rules as the lead instead of none.
 */
import type { AgentMiddleware } from "langchain";
import type { SubagentConfig, SubagentTask } from "../types.js";

/** What a per-task middleware factory is told about the task it builds for. */
export interface SubagentMiddlewareScope {
  readonly task: SubagentTask;
  /** The subagent's resolved config. */
  readonly subagent: SubagentConfig;
  /** The parent run's thread (`parent.scope.threadId`), when the host gave one. */
  readonly threadId?: string;
  /** The parent run's user (`parent.scope.userId`), when the host gave one. */
  readonly userId?: string;
  /** The subagent run's id (`parent.scope.runId`), when the host gave one. */
  readonly runId?: string;
  /** Aborts when the task is cancelled, times out or the executor shuts down. */
  readonly signal: AbortSignal;
}

/** Builds the middleware of one task's agent. */
export type SubagentMiddlewareFactory = (
  scope: SubagentMiddlewareScope,
) => readonly AgentMiddleware[] | Promise<readonly AgentMiddleware[]>;

/**
 * Middleware for every subagent: one list shared by all tasks (its middlewares
 * must then read per-run data from their `runtime`, as LangChain's prebuilt
 * ones do), or a factory called once per task.
 */
export type SubagentMiddleware = readonly AgentMiddleware[] | SubagentMiddlewareFactory;
