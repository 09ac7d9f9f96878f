/**
 * `@deerflow/sandbox/testing`: the conformance kit every sandbox implementation
 * runs in its integration tests. Requires vitest (an optional peer dependency).
 *
 * @packageDocumentation
 */
export { sandboxConformance } from "./conformance.js";
export type { MakeSandbox, SandboxHandle } from "./context.js";
export {
  DEFAULT_ISOLATED_LIMITS,
  type ClaimedLimits,
  type SandboxConformanceOptions,
  type SkillsFixture,
  type UnenforcedBound,
  type UnenforcedBounds,
} from "./options.js";
