/**
 * `@deerflow/memory/testing`: the conformance kit for `MemoryBackend`
 * implementations, and a local service speaking `HttpMemoryBackend`'s API. The kit registers its suite with the test functions it is
 * given (vitest's or jest's `describe`, `it`, `expect`, or `nodeTestRunner(nodeTest)` for
 * `node:test`); no test framework is imported.
 *
 * @packageDocumentation
 */
export {
  memoryBackendConformance,
  type MemoryBackendConformanceOptions,
  type MemoryBackendHandle,
} from "./memory-backend-conformance.js";
export { startHttpMemoryService, type HttpMemoryService } from "./http-memory-service.js";
export {
  assertExpect,
  nodeTestRunner,
  type ConformanceDescribe,
  type ConformanceExpect,
  type ConformanceIt,
  type ConformanceMatchers,
  type ConformanceRunner,
  type NodeTestModule,
} from "@deerflow/kernel";
