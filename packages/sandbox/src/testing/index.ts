/**
 * `@deerflow/sandbox/testing`: the conformance kit every sandbox implementation
 * runs in its integration tests. It registers its suites with the test
 * functions it is given (`describe`, `it`, `expect`, `beforeAll`, `afterAll`:
 * vitest's or jest's as they are, or `nodeTestRunner(nodeTest)` for
 * `node:test`); no test framework is imported.
 *
 * @packageDocumentation
 */
export { sandboxConformance, type SandboxConformanceOptions } from "./conformance.js";
export type { MakeSandbox, SandboxHandle } from "./context.js";
export {
  DEFAULT_ISOLATED_LIMITS,
  type ClaimedLimits,
  type SandboxClaims,
  type SandboxRunner,
  type SkillsFixture,
  type UnenforcedBound,
  type UnenforcedBounds,
} from "./options.js";
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
