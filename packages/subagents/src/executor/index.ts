export {
  SubagentExecutor,
  DEFAULT_MAX_CONCURRENT,
  CANCELLED_BY_USER,
  type SubagentExecutorOptions,
  type ExecuteOptions,
} from "./executor.js";
export { TaskStore, type TaskEntry, type TaskStoreOptions } from "./task-store.js";
export { selectSubagentTools } from "./tools.js";
export type { SubagentMiddleware, SubagentMiddlewareFactory, SubagentMiddlewareScope } from "./middleware.js";
