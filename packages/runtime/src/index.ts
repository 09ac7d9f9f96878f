/**
 * `@deerflow/runtime`: background runs of LangGraph JS graphs, streamed to any
 * number of clients, on one instance or many.
 *
 * Redis implementations live in `@deerflow/runtime/redis`, the PostgreSQL run
 * store in `@deerflow/runtime/postgres`, conformance kits in `@deerflow/runtime/testing`.
 *
 * @packageDocumentation
 */
export { RuntimeError, isDeerflowError, type RuntimeErrorCode } from "./errors.js";
export { silentLogger, type Logger } from "./logger.js";

// Runs and threads
export * from "./runs/types.js";
export type * from "./runs/run-store.js";
export { MemoryRunStore, type MemoryRunStoreOptions } from "./runs/memory-run-store.js";

// Assistants (user-created, versioned, owner-scoped)
export type * from "./assistants/assistant-store.js";
export { MemoryAssistantStore, type MemoryAssistantStoreOptions } from "./assistants/memory-assistant-store.js";

// Accounts
export type * from "./accounts/account-store.js";
export { MemoryAccountStore, type MemoryAccountStoreOptions } from "./accounts/memory-account-store.js";

// Run manager
export { RunManager } from "./manager/run-manager.js";
export type {
  CancelOutcome,
  CancelRunOptions,
  CreateRunInput,
  RunManagerOptions,
} from "./manager/run-manager-options.js";

// Stream bridge
export type * from "./stream/stream-bridge.js";
export { MemoryStreamBridge, type MemoryStreamBridgeOptions } from "./stream/memory-stream-bridge.js";

// Coordination
export type * from "./coordination/run-coordinator.js";
export { LocalRunCoordinator, type LocalRunCoordinatorOptions } from "./coordination/local-run-coordinator.js";
export { LocalCoordinationHub } from "./coordination/local-coordination-hub.js";

// Worker
export {
  RunAbort,
  type ExecuteRunInput,
  type GraphFactory,
  type GraphFactoryContext,
  type RunAbortAction,
  type StreamableGraph,
} from "./worker/types.js";
export { executeRun } from "./worker/execute-run.js";
export type { RunOutcome } from "./worker/run-outcome.js";
export { errorEventData } from "./worker/error-event.js";
export { graphInputOf, graphStreamOptionsOf, toGraphCommand } from "./worker/graph-input.js";
export {
  LEGACY_MESSAGE_EVENTS,
  STREAM_MODES,
  graphStreamModesFor,
  normalizeStreamModes,
  sseEventName,
  type GraphStreamMode,
} from "./worker/stream-modes.js";
export {
  MAX_SERIALIZE_DEPTH,
  serializeMessage,
  serializeMessageTuple,
  serializeState,
  serializeValue,
} from "./worker/serialization.js";
export { checkpointRefOf, cleanConfig, serializeModePayload, type CheckpointRef } from "./worker/mode-payloads.js";
export { restoreThreadCheckpoint, type RestoreResult } from "./worker/rollback.js";

// Long-term store (LangGraph's BaseStore)
export { createGraphStore, type GraphStoreConfig, type GraphStoreHandle } from "./graph-store/create-graph-store.js";

// Checkpointers
export {
  createCheckpointer,
  validateCheckpointerConfig,
  type CheckpointerConfig,
  type CheckpointerHandle,
  type CreateCheckpointerOptions,
  type FileCheckpointerConfig,
  type MemoryCheckpointerConfig,
  type PostgresCheckpointerConfig,
} from "./checkpointers/create-checkpointer.js";
export { recordsRunMetadata, withRunMetadata } from "./checkpointers/run-metadata.js";
