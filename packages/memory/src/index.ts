/**
 * `@deerflow/memory`: long-term memory for LangGraph JS agents, on the
 * LangGraph store API.
 *
 * @packageDocumentation
 */
export { MemoryError, MEMORY_ERROR_TEXT, isDeerflowError, type MemoryErrorCode } from "./errors.js";
export type { Logger } from "./logger.js";
export {
  FACT_CATEGORIES,
  HISTORY_SECTIONS,
  USER_SECTIONS,
  type FactCategory,
  type FactPatch,
  type FactSourceType,
  type HistorySectionName,
  type MemoryDocument,
  type MemoryFact,
  type MemoryScope,
  type MemorySection,
  type MemorySummaries,
  type NewFact,
  type SummaryUpdate,
  type UserSectionName,
} from "./types.js";
export { DEFAULT_AGENT_BUCKET } from "./document.js";
export type { MemoryBackend, MemorySearchOptions } from "./backend/memory-backend.js";
export { StoreMemoryBackend, type StoreMemoryBackendOptions } from "./backend/store-memory-backend.js";
export { HttpMemoryBackend, type HttpMemoryBackendOptions } from "./backend/http-memory-backend.js";
export { MEMORY_BACKEND_SHAPE, isMemoryBackend } from "./backend/is-memory-backend.js";
export { DEFAULT_MEMORY_SETTINGS, resolveMemorySettings, type MemorySettings } from "./memory-settings.js";
export { MemoryManager, type MemoryManagerOptions, type MemoryWriteResult } from "./memory-manager.js";
export { memoryScopeOf, type RunScopeSource } from "./memory-scope-of.js";
export {
  gateMemoryUpdate,
  type MemorySignal,
  type MemoryWritePlan,
  type PlannedUpdate,
  type WriteGateContext,
} from "./extraction/write-gate.js";
export { MEMORY_UPDATE_SCHEMA, type MemoryUpdateResult } from "./extraction/memory-update-result.js";
export {
  MemoryUpdater,
  type MemoryUpdateOutcome,
  type MemoryUpdateRequest,
  type MemoryUpdaterOptions,
} from "./extraction/memory-updater.js";
export {
  MemoryUpdateQueue,
  type MemoryQueueAddOptions,
  type MemoryQueueItem,
  type MemoryUpdateQueueOptions,
} from "./queue/memory-update-queue.js";
export {
  formatMemory,
  countTokensByChars,
  type MemoryFormatOptions,
  type TokenCounter,
} from "./injection/format-memory.js";
export {
  createMemoryMiddleware,
  MEMORY_MESSAGE_SUFFIX,
  type MemoryMiddlewareOptions,
} from "./injection/memory-middleware.js";
export { createMemoryTools, type MemoryToolsOptions } from "./tools/memory-tools.js";
