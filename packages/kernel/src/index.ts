/**
 * `@deerflow/kernel` (private): the small utilities every `@deerflow/*`
 * package shares, written once. Never published: each package bundles what it
 * uses at build time (see the README for why).
 *
 * @packageDocumentation
 */

export { silentLogger, type Logger } from "./logger.js";
export { DeerflowError, isDeerflowError, type DeerflowErrorOptions } from "./errors/deerflow-error.js";
export { isPathInside, type PathInsideOptions } from "./paths/is-path-inside.js";
export { Semaphore, type Release } from "./concurrency/semaphore.js";
export { SerialQueue, type SerialQueueOptions } from "./concurrency/serial-queue.js";
export { KeyedLock, type KeyedLockOptions } from "./concurrency/keyed-lock.js";
export { sleep } from "./concurrency/sleep.js";
export { LruCache } from "./cache/lru-cache.js";
export { fsyncDirectory, writeFileAtomic, type AtomicWriteOptions } from "./fs/atomic-write.js";
export { SETTLED_FILE_MS, settledFile, settledTextFile, type SettledTextFileOptions } from "./fs/settled-text-file.js";
export { readBodyCapped } from "./http/read-body-capped.js";
export { PluginLoadError, type PluginLoadErrorCode, type PluginLoadStage } from "./plugins/plugin-load-error.js";
export { isUseSpec, parseUseSpec, type UseSpec } from "./plugins/parse-use.js";
export { isPathSpecifier, resolvePluginModule, type ResolvedModule } from "./plugins/resolve-module.js";
export { isClass, kindOf, loadExport, type ImportModule, type LoadExportOptions } from "./plugins/load-export.js";
export { loadPlugin, type LoadPluginOptions } from "./plugins/load-plugin.js";
export {
  RUN_REPORT_KEY,
  reportRunError,
  reportRunStop,
  reportRunTokens,
  runReportOf,
  type CountedTokens,
  type RunReport,
  type RunReportCarrier,
  type RunTokenUsage,
  type TokenCounts,
} from "./runs/run-report.js";
export { assertExpect } from "./conformance/assert-expect.js";
export {
  errorCodeOf,
  freshSubjectTest,
  type FreshSubjectHandle,
  type FreshSubjectTest,
} from "./conformance/fresh-subject.js";
export { nodeTestRunner, type NodeTestModule } from "./conformance/node-test-runner.js";
export type {
  ConformanceDescribe,
  ConformanceExpect,
  ConformanceHook,
  ConformanceHookName,
  ConformanceIt,
  ConformanceMatchers,
  ConformanceRunner,
  ConformanceTestContext,
} from "./conformance/conformance-runner.js";
