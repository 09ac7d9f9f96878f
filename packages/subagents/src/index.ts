/**
 * `@deerflow/subagents`: delegation from a LangGraph JS lead agent to subagents
 * that run in parallel, isolated from its context.
 *
 * - {@link SubagentRegistry}: built-ins (`general-purpose`, `bash`) and custom subagents.
 * - {@link SubagentExecutor}: concurrency limit, per-task timeout and cancellation,
 *   all through `AbortSignal`, so in-flight model and tool calls really stop.
 * - {@link createTaskTool}: the lead's `task` tool and its `task_*` stream events.
 * - {@link createSubagentLimitMiddleware}: per-response and per-run delegation caps.
 * - {@link renderSubagentSection}: the `<subagent_system>` prompt section.
 *
 * @packageDocumentation
 */
export type {
  SubagentConfig,
  SubagentParentContext,
  SubagentProgress,
  SubagentResult,
  SubagentRunScope,
  SubagentStatus,
  SubagentTask,
  SubagentTerminalStatus,
  TokenUsage,
} from "./types.js";
export { silentLogger, type Logger } from "./logger.js";
export { SubagentError, isDeerflowError, type SubagentErrorCode } from "./errors.js";
export * from "./registry/index.js";
export {
  CANCELLED_BY_USER,
  DEFAULT_MAX_CONCURRENT,
  SubagentExecutor,
  TaskStore,
  selectSubagentTools,
  type ExecuteOptions,
  type SubagentExecutorOptions,
  type SubagentMiddleware,
  type SubagentMiddlewareFactory,
  type SubagentMiddlewareScope,
  type TaskEntry,
  type TaskStoreOptions,
} from "./executor/index.js";
export * from "./task-tool/index.js";
export * from "./limits/index.js";
export * from "./prompt/index.js";
