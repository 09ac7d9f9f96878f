/** The lead's `task` tool, its result contract and its stream events. */
export {
  createTaskTool,
  type TaskExecutor,
  type TaskRegistry,
  type TaskTool,
  type TaskToolOptions,
} from "./task-tool.js";
export { buildTaskToolSchema, TASK_TOOL_DESCRIPTION, TASK_TOOL_NAME, type TaskToolInput } from "./task-tool-schema.js";
export {
  briefText,
  buildTaskResultKwargs,
  defaultErrorText,
  formatTaskResultContent,
  MAX_RESULT_BRIEF_CHARS,
  sha256Hex,
  toWireUsage,
  type TaskOutcome,
  type TaskResultKwargs,
  type WireTokenUsage,
} from "./result-format.js";
export {
  serializeMessage,
  TASK_EVENT_TYPES,
  type SerializedMessage,
  type TaskCompletedEvent,
  type TaskErrorEvent,
  type TaskEvent,
  type TaskRunningEvent,
  type TaskStartedEvent,
} from "./events.js";
