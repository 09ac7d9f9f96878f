/**
 * The sandbox's memory and pids bounds through `LocalSandboxProvider` and
 * bubblewrap: memfd, `/dev/shm` and `/tmp` pages count against `memoryBytes`
 * (RLIMIT_DATA does not count them), a kill for it is reported on stderr, a
 * fork loop stops at the pids bound, and `release` ends whatever still runs.
 *
 * Where the host has no writable cgroups, the fallback is asserted instead
 * (the memfd allocation is not bounded, as the README says); under `CI=true`
 * both bubblewrap and cgroups are required.
 */
import fs from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { MEMORY_LIMIT_NOTICE_PREFIX } from "../src/bounds/bound-messages.js";
import { detectCgroups } from "../src/cgroups/detect-cgroups.js";
import { NoCgroupController } from "../src/cgroups/no-cgroup.js";
import {
  BubblewrapRunner,
  LocalSandboxProvider,
  SandboxError,
  WORKSPACE_PATH,
  type LocalSandbox,
  type ResourceLimits,
} from "../src/index.js";
import { createProviderFolders, createTempRoot, uniqueThreadId } from "./support/local-fixture.js";

const MiB = 1024 * 1024;
const available = await BubblewrapRunner.isAvailable();
const cgroups = await detectCgroups();
const memoryBound = cgroups.controllers.includes("memory");
const pidsBound = cgroups.controllers.includes("pids");
const why = cgroups instanceof NoCgroupController ? cgroups.reason : `${cgroups.version} without the memory controller`;
if (process.env["CI"] === "true" && !(available && memoryBound && pidsBound)) {
  throw new Error(
    `CI needs bubblewrap and cgroup memory + pids bounds (bwrap usable: ${String(available)}; cgroups: ${why})`,
  );
}

const root = available ? await createTempRoot("sbx-memory") : undefined;
const providers: LocalSandboxProvider[] = [];
afterAll(async () => {
  await Promise.all(providers.map((p) => p.shutdown()));
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

async function sandboxWith(limits: ResourceLimits): Promise<{ provider: LocalSandboxProvider; sandbox: LocalSandbox }> {
  const { baseDir } = await createProviderFolders(root as string);
  const provider = new LocalSandboxProvider({ baseDir, runner: new BubblewrapRunner(), limits });
  providers.push(provider);
  return { provider, sandbox: await provider.acquire(uniqueThreadId()) };
}

/** Fills `n` bytes of memfd page by page (RLIMIT_DATA does not count them). */
const memfdFill = (n: number): string =>
  `python3 -c 'import os, mmap\nn = ${n}\nfd = os.memfd_create("fill")\nos.ftruncate(fd, n)\nm = mmap.mmap(fd, n)\nfor i in range(0, n, 4096): m[i] = 1\nprint("filled")'`;

const LIMIT = 128 * MiB;

describe.skipIf(!available || !memoryBound)(
  memoryBound
    ? `memory bound (cgroup ${cgroups.version}): memfd, /dev/shm and /tmp count`
    : `memory bound: SKIPPED, ${available ? why : "no usable bubblewrap"}`,
  () => {
    it("kills a command whose memfd pages cross memoryBytes, says so, and keeps the peak at the bound", async () => {
      const { sandbox } = await sandboxWith({ memoryBytes: LIMIT, processes: 128, tmpBytes: 64 * MiB });
      const result = await sandbox.execute(memfdFill(512 * MiB), { timeoutMs: 120_000 });
      expect(result.stdout).not.toContain("filled");
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toContain(MEMORY_LIMIT_NOTICE_PREFIX);
      expect(result.stderr).toContain("memory bound of 128.0 MiB");
      const status = await sandbox.bounds.status();
      expect(status.cgroup?.enforced.memory).toBe(true);
      const peak = status.cgroup?.memory?.peakBytes;
      // The kernel never charges past the bound; v2 before 5.19 has no peak to read.
      if (peak !== undefined) expect(peak).toBeLessThanOrEqual(LIMIT);
      expect(status.cgroup?.memory?.oomKills).toBeGreaterThanOrEqual(1);
      // The sandbox is not stuck afterwards.
      expect((await sandbox.execute("echo alive")).stdout).toBe("alive\n");
    }, 180_000);

    it("kills a command filling /dev/shm past memoryBytes", async () => {
      const { sandbox } = await sandboxWith({ memoryBytes: LIMIT, processes: 128 });
      const result = await sandbox.execute("head -c 536870912 /dev/zero > /dev/shm/fill; echo rc=$?", {
        timeoutMs: 120_000,
      });
      expect(result.stdout).not.toBe("rc=0\n");
      expect(result.stderr).toContain(MEMORY_LIMIT_NOTICE_PREFIX);
    }, 180_000);

    it("counts /tmp (a tmpfs in RAM) against memoryBytes even when tmpBytes allows more", async () => {
      const { sandbox } = await sandboxWith({ memoryBytes: LIMIT, processes: 128, tmpBytes: 1024 * MiB });
      const result = await sandbox.execute("head -c 536870912 /dev/zero > /tmp/fill; echo rc=$?", {
        timeoutMs: 120_000,
      });
      expect(result.stdout).not.toBe("rc=0\n");
      expect(result.stderr).toContain(MEMORY_LIMIT_NOTICE_PREFIX);
      expect((await sandbox.execute("echo alive")).stdout).toBe("alive\n");
    }, 180_000);

    it("leaves a command within the bound alone", async () => {
      const { sandbox } = await sandboxWith({ memoryBytes: LIMIT, processes: 128 });
      const result = await sandbox.execute(memfdFill(32 * MiB), { timeoutMs: 60_000 });
      expect(result).toMatchObject({ exitCode: 0, stdout: "filled\n" });
      expect(result.stderr).not.toContain(MEMORY_LIMIT_NOTICE_PREFIX);
    }, 120_000);
  },
);

describe.skipIf(!available || memoryBound)(`fallback without a memory cgroup (${why}): RLIMIT_DATA only`, () => {
  it("does not bound memfd pages (the README's documented gap on such hosts)", async () => {
    const { sandbox } = await sandboxWith({ memoryBytes: LIMIT, processes: 128 });
    const result = await sandbox.execute(memfdFill(256 * MiB), { timeoutMs: 120_000 });
    expect(result.stdout).toBe("filled\n");
    expect((await sandbox.bounds.status()).cgroup).toBeUndefined();
  }, 180_000);
});

describe.skipIf(!available || !pidsBound)(
  pidsBound ? `pids bound (cgroup ${cgroups.version})` : `pids bound: SKIPPED, ${why}`,
  () => {
    it("stops a fork loop at processes + the wrappers' headroom and keeps working", async () => {
      const { sandbox } = await sandboxWith({ processes: 32 });
      // The shell retries a refused fork with back-off: the timeout ends it, the output counts the sleepers that started.
      const probe = await sandbox.execute(
        "n=0; while [ $n -lt 200 ]; do (echo s; exec sleep 30) & n=$((n+1)); done 2>/dev/null; exit 0",
        { timeoutMs: 5_000 },
      );
      const started = probe.stdout.split("\n").filter((l) => l === "s").length;
      expect(started).toBeGreaterThan(0);
      expect(started).toBeLessThanOrEqual(32);
      const status = await sandbox.bounds.status();
      expect(status.cgroup?.enforced.pids).toBe(true);
      expect(status.cgroup?.bounds.pids).toBe(48);
      const bomb = await sandbox.execute("bomb() { bomb | bomb & }; bomb; sleep 2", { timeoutMs: 5_000 });
      expect(typeof bomb.timedOut).toBe("boolean");
      expect((await sandbox.execute("echo alive", { timeoutMs: 30_000 })).stdout).toBe("alive\n");
    }, 90_000);
  },
);

describe.skipIf(!available || (!memoryBound && !pidsBound))("release", () => {
  it("kills what the sandbox still runs and removes its cgroup; the next command gets a new one", async () => {
    const { provider, sandbox } = await sandboxWith({ processes: 64, memoryBytes: 256 * MiB });
    const running = sandbox.execute(": > started; sleep 60; echo finished", { timeoutMs: 120_000 });
    running.catch(() => undefined); // awaited below
    await waitForFile(sandbox, `${WORKSPACE_PATH}/started`);
    const first = (await sandbox.bounds.status()).cgroup;
    expect(first).toBeDefined();
    const started = Date.now();
    await provider.release(sandbox.id);
    // The per-command runner resolves the killed command; the executor rejects it as released.
    const outcome = await running.then(
      (result) => result.stdout,
      (err: unknown) => (SandboxError.isInstance(err) ? err.message : String(err)),
    );
    expect(outcome).not.toContain("finished");
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await sandbox.bounds.status()).cgroup).toBeUndefined();
    expect((await sandbox.execute("echo again")).stdout).toBe("again\n");
    const second = (await sandbox.bounds.status()).cgroup;
    expect(second).toBeDefined();
    expect(second).not.toEqual(first);
  }, 120_000);
});

/** Waits until a command has created `path` (so it runs, inside its cgroup). */
async function waitForFile(sandbox: LocalSandbox, path: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (
    !(await sandbox.readFile(path).then(
      () => true,
      () => false,
    ))
  ) {
    if (Date.now() > end) throw new Error(`${path} never appeared`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
