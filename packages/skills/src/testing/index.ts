/**
 * Conformance kits for plugin authors of `@deerflow/skills` extension points.
 * The test functions are injected (`describe`, `it`, `expect`: vitest's or
 * jest's as they are, or `nodeTestRunner(nodeTest)` for `node:test`), so the
 * kits import no test framework.
 *
 * @example
 * ```ts
 * import { describe, it, expect } from "vitest";
 * import { skillScannerConformance } from "@deerflow/skills/testing";
 * skillScannerConformance({ name: "MyScanner", makeScanner: () => new MyScanner(), describe, it, expect });
 * ```
 *
 * @packageDocumentation
 */
export {
  moderationScannerConformance,
  scanReportProblems,
  skillScannerConformance,
  type ScannerConformanceOptions,
  type ScannerFactory,
} from "./scanner-conformance.js";
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
