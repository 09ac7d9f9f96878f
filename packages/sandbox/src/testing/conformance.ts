/** `sandboxConformance`: registers the whole kit as one vitest suite. */
import { describe } from "vitest";
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
import { resolveOptions, type SandboxConformanceOptions } from "./options.js";
import { resourceBoundTests } from "./resource-bounds.js";
import { swappedParentTests } from "./swapped-parent.js";

/**
 * Registers the sandbox conformance suite: one `describe` per capability
 * (execute, files, line ranges, listDir, glob, grep, error codes, hostile
 * paths, hostile commands, resource bounds, a swapped parent folder), each
 * with a sandbox of its own from `makeSandbox`.
 * Call it at the top level of a `*.int.test.ts` file; vitest must be installed
 * (it is an optional peer dependency of this package).
 *
 * Checks of capabilities the implementation does not claim (`isolated`,
 * `skillsMounted`, `hostRoots`, `resourceLimits`) are registered as skipped;
 * a bound declared in `unenforcedBounds` is checked to be documented.
 *
 * @param name - Names the suite (`sandboxConformance: <name>`).
 * @param makeSandbox - Creates a fresh sandbox; `cleanup` runs after the capability's tests.
 * @param options - What the implementation claims, and timeout scaling.
 * @throws TypeError when the options are invalid.
 *
 * @example
 * ```ts
 * import { sandboxConformance } from "@deerflow/sandbox/testing";
 *
 * sandboxConformance("my provider", async () => {
 *   const provider = new MyProvider();
 *   return { sandbox: await provider.acquire(`t-${Date.now()}`), cleanup: () => provider.shutdown() };
 * }, { isolated: true, skillsMounted: true });
 * ```
 */
export function sandboxConformance(name: string, makeSandbox: MakeSandbox, options?: SandboxConformanceOptions): void {
  const resolved = resolveOptions(options);
  describe(`sandboxConformance: ${name}`, () => {
    capability("execute", makeSandbox, resolved, executeTests);
    capability("readFile / writeFile / readBytes / writeBytes", makeSandbox, resolved, fileTests);
    capability("readFile line ranges", makeSandbox, resolved, lineRangeTests);
    capability("listDir", makeSandbox, resolved, listDirTests);
    capability("glob", makeSandbox, resolved, globTests);
    capability("grep", makeSandbox, resolved, grepTests);
    capability("error codes", makeSandbox, resolved, errorTests);
    capability("hostile paths", makeSandbox, resolved, hostilePathTests);
    capability("hostile commands", makeSandbox, resolved, hostileCommandTests);
    capability("resource bounds", makeSandbox, resolved, resourceBoundTests);
    capability("swapped parent folder", makeSandbox, resolved, swappedParentTests);
  });
}
