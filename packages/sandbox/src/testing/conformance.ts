/** `sandboxConformance`: registers the whole kit as one suite of the injected test functions. */
import { capability, type MakeSandbox } from "./context.js";
import { errorTests } from "./errors.js";
import { executeTests } from "./execute.js";
import { fileTests } from "./files.js";
import { globTests } from "./glob.js";
import { grepTests } from "./grep.js";
import { hostileCommandTests } from "./hostile-commands.js";
import { hostilePathTests } from "./hostile-paths.js";
import { lineRangeTests } from "./line-ranges.js";
import { listDirTests } from "./list-dir.js";
import { resolveOptions, type SandboxClaims, type SandboxRunner } from "./options.js";
import { resourceBoundTests } from "./resource-bounds.js";
import { swappedParentTests } from "./swapped-parent.js";

/** The one argument of {@link sandboxConformance}: what to test, what it claims, with which test functions. */
export interface SandboxConformanceOptions extends SandboxClaims, SandboxRunner {
  /** Names the suite (`sandboxConformance: <name>`). */
  readonly name: string;
  /** Creates a fresh sandbox; called once per capability, its `cleanup` after the capability's tests. */
  readonly makeSandbox: MakeSandbox;
}

/**
 * Registers the sandbox conformance suite: one `describe` per capability
 * (execute, files, line ranges, listDir, glob, grep, error codes, hostile
 * paths, hostile commands, resource bounds, a swapped parent folder), each
 * with a sandbox of its own from `makeSandbox`.
 * Call it at the top level of a `*.int.test.ts` file with your runner's
 * `describe`, `it`, `expect`, `beforeAll` and `afterAll` (vitest's or jest's as
 * they are; `nodeTestRunner(nodeTest)` for `node:test`).
 *
 * Checks of capabilities the implementation does not claim (`isolated`,
 * `skillsMounted`, `hostRoots`, `resourceLimits`) are registered as skipped;
 * a bound declared in `unenforcedBounds` is checked to be documented.
 *
 * @param options - `name`, `makeSandbox`, the test functions, what the
 *   implementation claims ({@link SandboxClaims}), and timeout scaling.
 * @throws TypeError when the options are invalid.
 *
 * @example
 * ```ts
 * import { afterAll, beforeAll, describe, expect, it } from "vitest";
 * import { sandboxConformance } from "@deerflow/sandbox/testing";
 *
 * sandboxConformance({
 *   name: "my provider",
 *   makeSandbox: async () => {
 *     const provider = new MyProvider();
 *     return { sandbox: await provider.acquire(`t-${Date.now()}`), cleanup: () => provider.shutdown() };
 *   },
 *   isolated: true,
 *   skillsMounted: true,
 *   describe, it, expect, beforeAll, afterAll,
 * });
 * ```
 */
export function sandboxConformance(options: SandboxConformanceOptions): void {
  const resolved = resolveOptions(options);
  const { makeSandbox } = options;
  options.describe(`sandboxConformance: ${options.name}`, () => {
    capability(options, "execute", makeSandbox, resolved, executeTests);
    capability(options, "readFile / writeFile / readBytes / writeBytes", makeSandbox, resolved, fileTests);
    capability(options, "readFile line ranges", makeSandbox, resolved, lineRangeTests);
    capability(options, "listDir", makeSandbox, resolved, listDirTests);
    capability(options, "glob", makeSandbox, resolved, globTests);
    capability(options, "grep", makeSandbox, resolved, grepTests);
    capability(options, "error codes", makeSandbox, resolved, errorTests);
    capability(options, "hostile paths", makeSandbox, resolved, hostilePathTests);
    capability(options, "hostile commands", makeSandbox, resolved, hostileCommandTests);
    capability(options, "resource bounds", makeSandbox, resolved, resourceBoundTests);
    capability(options, "swapped parent folder", makeSandbox, resolved, swappedParentTests);
  });
}
