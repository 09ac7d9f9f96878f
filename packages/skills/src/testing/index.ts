/**
 * Conformance kits for plugin authors of `@deerflow/skills` extension points.
 * The test runner is injected, so the kits work with vitest, jest or node:test.
 *
 * @example
 * ```ts
 * import { describe, it, expect } from "vitest";
 * import { describeSkillScannerConformance } from "@deerflow/skills/testing";
 * describeSkillScannerConformance("MyScanner", () => new MyScanner(), { describe, it, expect });
 * ```
 *
 * @packageDocumentation
 */
export {
  describeModerationScannerConformance,
  describeSkillScannerConformance,
  scanReportProblems,
  type ConformanceExpect,
  type ConformanceRunner,
  type ScannerFactory,
} from "./scanner-conformance.js";
