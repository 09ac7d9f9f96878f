/**
 * `@deerflow/runtime/testing`: conformance kits for plugin authors. Each kit
 * registers the suites an implementation must pass, with the test functions it
 * is given (`describe`, `it`, `expect` and hooks: vitest's or jest's as they
 * are, or `nodeTestRunner(nodeTest)` for `node:test`); no test framework is
 * imported.
 *
 * @packageDocumentation
 */
export {
  streamBridgeConformance,
  type MakeStreamBridge,
  type StreamBridgeConformanceOptions,
  type StreamBridgeHandle,
  type StreamBridgeRunner,
} from "./stream-bridge-conformance.js";
export {
  runStoreConformance,
  type MakeRunStore,
  type MakeRunStoreInstances,
  type RunStoreConformanceOptions,
  type RunStoreHandle,
  type RunStoreInstances,
  type RunStoreRunner,
} from "./run-store-conformance.js";
export {
  assistantStoreConformance,
  type AssistantStoreConformanceOptions,
  type AssistantStoreHandle,
  type AssistantStoreInstances,
  type AssistantStoreRunner,
  type MakeAssistantStore,
  type MakeAssistantStoreInstances,
} from "./assistant-store-conformance.js";
export {
  runCoordinatorConformance,
  type MakeRunCoordinators,
  type RunCoordinatorConformanceOptions,
  type RunCoordinatorGroup,
  type RunCoordinatorRunner,
} from "./run-coordinator-conformance.js";
export {
  baseStoreConformance,
  type BaseStoreConformanceOptions,
  type BaseStoreHandle,
  type BaseStoreRunner,
  type MakeBaseStore,
} from "./base-store-conformance.js";
export {
  accountStoreConformance,
  type AccountStoreConformanceOptions,
  type AccountStoreHandle,
  type AccountStoreInstances,
  type AccountStoreRunner,
  type MakeAccountStore,
  type MakeAccountStoreInstances,
} from "./account-store-conformance.js";
export {
  assertExpect,
  nodeTestRunner,
  type ConformanceDescribe,
  type ConformanceExpect,
  type ConformanceHook,
  type ConformanceHookName,
  type ConformanceIt,
  type ConformanceMatchers,
  type ConformanceRunner,
  type ConformanceTestContext,
  type NodeTestModule,
} from "@deerflow/kernel";
