/**
 * `@deerflow/runtime/testing`: conformance kits for plugin authors. Each kit
 * registers vitest suites (vitest is an optional peer dependency) that an
 * implementation must pass.
 *
 * @packageDocumentation
 */
export { streamBridgeConformance, type MakeStreamBridge, type StreamBridgeConformanceOptions, type StreamBridgeHandle } from "./stream-bridge-conformance.js";
export {
  runStoreConformance,
  type MakeRunStore,
  type MakeRunStoreInstances,
  type RunStoreConformanceOptions,
  type RunStoreHandle,
  type RunStoreInstances,
} from "./run-store-conformance.js";
export { runCoordinatorConformance, type MakeRunCoordinators, type RunCoordinatorConformanceOptions, type RunCoordinatorGroup } from "./run-coordinator-conformance.js";
