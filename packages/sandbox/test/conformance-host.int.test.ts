/**
 * The conformance kit against `LocalSandbox` running commands on the host
 * (`HostRunner`, what `allowHostBash: true` selects). Host execution is not
 * isolated, so the isolation checks are skipped; everything else must hold.
 */
import fs from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostRunner, LocalSandboxProvider } from "../src/index.js";
import { sandboxConformance } from "../src/testing/index.js";
import { createProviderFolders, createTempRoot, SKILLS_FIXTURE, uniqueThreadId } from "./support/local-fixture.js";

/** prlimit applies on the host too; above readBytes' 100 MiB cap so that check can still make its file. */
const FILE_SIZE_LIMIT = 200 * 1024 * 1024;
/** The thread's disk quota: room for readBytes' file over its cap, small enough for the fillers to cross quickly. */
const DISK_QUOTA = 192 * 1024 * 1024;
/** The README's sentence on the host runner's memory (checked word for word by the kit). */
const HOST_MEMORY_GAP =
  "shares the host's `/tmp` and `/dev/shm`: what a command leaves there outlives it and is no sandbox's memory";

const root = await createTempRoot("sbx-kit-host");
afterAll(() => fs.rm(root, { recursive: true, force: true }));

sandboxConformance({
  name: "LocalSandbox with HostRunner (allowHostBash)",
  makeSandbox: async () => {
    const { baseDir, skillsDir } = await createProviderFolders(root);
    const provider = new LocalSandboxProvider({
      baseDir,
      skillsDir,
      runner: new HostRunner(),
      limits: { fileSizeBytes: FILE_SIZE_LIMIT, diskBytes: DISK_QUOTA },
    });
    return { sandbox: await provider.acquire(uniqueThreadId()), cleanup: () => provider.shutdown() };
  },
  isolated: false,
  skillsMounted: true,
  skillsFixture: SKILLS_FIXTURE,
  hostRoots: [root],
  // The disk quota holds on any host; the memory bound cannot hold for commands sharing the host's /tmp and /dev/shm.
  resourceLimits: { fileSizeBytes: FILE_SIZE_LIMIT, diskBytes: DISK_QUOTA },
  unenforcedBounds: {
    memory: { reason: HOST_MEMORY_GAP, documentedIn: fileURLToPath(new URL("../README.md", import.meta.url)) },
  },
  describe,
  it,
  expect,
  beforeAll,
  afterAll,
});
