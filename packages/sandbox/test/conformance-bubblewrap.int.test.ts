/**
 * The conformance kit against `LocalSandbox` with `BubblewrapRunner`: isolated
 * commands under resource limits, `/mnt/skills` read-only. Without bubblewrap
 * the suite is skipped (its name says why), except in CI (`CI=true`), where a
 * missing bwrap fails the file: `.ci/run` installs it.
 */
import fs from "node:fs/promises";
import { afterAll, describe } from "vitest";
import { BubblewrapRunner, LocalSandboxProvider, type ResourceLimits } from "../src/index.js";
import { sandboxConformance } from "../src/testing/index.js";
import { createProviderFolders, createTempRoot, SKILLS_FIXTURE, uniqueThreadId } from "./support/local-fixture.js";

const available = await BubblewrapRunner.isAvailable();
if (!available && process.env["CI"] === "true") {
  throw new Error("bubblewrap (bwrap) is missing or unusable in CI: install it (`apt-get install bubblewrap`; .ci/run does this as root)");
}

/**
 * What the sandbox enforces; the kit's fork bomb and disk filler rely on them.
 * The runner's default identity (one uid per sandbox, when root) gives each
 * sandbox its own RLIMIT_NPROC budget, so the fork bomb does not starve the
 * bubblewrap commands other test files run at the same time.
 */
const LIMITS: ResourceLimits = { processes: 256, fileSizeBytes: 64 * 1024 * 1024, openFiles: 1024, tmpBytes: 64 * 1024 * 1024 };

const root = available ? await createTempRoot("sbx-kit-bwrap") : undefined;
afterAll(async () => {
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

describe.skipIf(!available)(available ? "BubblewrapRunner" : "BubblewrapRunner: SKIPPED, bubblewrap (bwrap) is not installed or not usable here", () => {
  sandboxConformance(
    "LocalSandbox with BubblewrapRunner",
    async () => {
      const { baseDir, skillsDir } = await createProviderFolders(root as string);
      const provider = new LocalSandboxProvider({ baseDir, skillsDir, runner: new BubblewrapRunner(), limits: LIMITS });
      return { sandbox: await provider.acquire(uniqueThreadId()), cleanup: () => provider.shutdown() };
    },
    {
      isolated: true,
      skillsMounted: true,
      skillsFixture: SKILLS_FIXTURE,
      hostRoots: root === undefined ? [] : [root],
      resourceLimits: { processes: LIMITS.processes as number, fileSizeBytes: LIMITS.fileSizeBytes as number },
    },
  );
});
