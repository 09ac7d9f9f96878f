/**
 * SandboxBounds around a scripted runner and a fake cgroup controller: which
 * spec the runner gets, the notices, the quota stop, cgroup creation and
 * release. Real kernels and bubblewrap: test/memory-bounds.int.test.ts and
 * test/disk-quota.int.test.ts.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CgroupBounds, CgroupController, CgroupMemoryEvents, SandboxCgroup } from "../cgroups/cgroup-types.js";
import { SandboxError } from "../errors.js";
import type { CommandSpec } from "../exec/command-runner.js";
import type { ExecuteResult } from "../sandbox.js";
import { DISK_QUOTA_NOTICE_PREFIX, MEMORY_LIMIT_NOTICE_PREFIX } from "./bound-messages.js";
import { SandboxBounds } from "./sandbox-bounds.js";

const OK: ExecuteResult = { stdout: "ok\n", stderr: "", exitCode: 0, signal: null, timedOut: false, truncated: false };
const SPEC: CommandSpec = {
  command: "x",
  mounts: [],
  cwd: "/mnt/user-data/workspace",
  env: {},
  timeoutMs: 60_000,
  maxOutputBytes: 1024,
  limits: {},
  network: false,
};

class FakeCgroup implements SandboxCgroup {
  readonly version = "v1";
  readonly name = "fake";
  readonly enforced = { memory: true, pids: true, cpu: false };
  events: CgroupMemoryEvents = { oomKills: 0, limitHits: undefined };
  closed = 0;
  constructor(readonly bounds: CgroupBounds) {}
  async attach(): Promise<void> {}
  async memoryStatus() {
    return { currentBytes: 0, peakBytes: 0, ...this.events };
  }
  async memoryEvents(): Promise<CgroupMemoryEvents> {
    return this.events;
  }
  async killAll(): Promise<void> {}
  async close(): Promise<void> {
    this.closed += 1;
  }
}

class FakeController implements CgroupController {
  readonly version = "v1";
  readonly controllers = ["memory", "pids"];
  made: FakeCgroup[] = [];
  failNext = false;
  async create(_id: string, bounds: CgroupBounds): Promise<SandboxCgroup> {
    if (this.failNext) {
      this.failNext = false;
      throw new SandboxError("UNAVAILABLE", "cgroup: cannot create a cgroup (EACCES)");
    }
    const cgroup = new FakeCgroup(bounds);
    this.made.push(cgroup);
    return cgroup;
  }
}

/** What a runner does with `spec.signal`: reject with ABORTED once it fires (at once if it already has). */
function untilAborted(spec: CommandSpec): Promise<never> {
  return new Promise((_, reject) => {
    const abort = (): void => reject(new SandboxError("ABORTED", "Command aborted"));
    if (spec.signal?.aborted === true) abort();
    else spec.signal?.addEventListener("abort", abort, { once: true });
  });
}

let root: string;
let workspace: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "bounds-"));
  workspace = path.join(root, "workspace");
  await mkdir(workspace);
});
afterEach(() => rm(root, { recursive: true, force: true }));

const mounts = () => [{ virtualPath: "/mnt/user-data/workspace", hostPath: workspace, readOnly: false }];

describe("SandboxBounds: cgroup", () => {
  it("makes the cgroup on the first command from the limits, hands it to the runner, and reuses it", async () => {
    const controller = new FakeController();
    const bounds = new SandboxBounds({
      sandboxId: "s",
      limits: { memoryBytes: 1 << 20, processes: 8 },
      cgroups: Promise.resolve(controller),
      quotaMounts: mounts(),
    });
    const specs: CommandSpec[] = [];
    await bounds.runCommand(SPEC, async (spec) => (specs.push(spec), OK));
    await bounds.runCommand(SPEC, async (spec) => (specs.push(spec), OK));
    expect(controller.made).toHaveLength(1);
    expect(controller.made[0]?.bounds).toEqual({ memoryBytes: 1 << 20, pids: 24 });
    expect(specs[0]?.cgroup).toBe(controller.made[0]);
    expect(specs[1]?.cgroup).toBe(controller.made[0]);
  });

  it("makes no cgroup when the limits ask for no cgroup bound", async () => {
    const controller = new FakeController();
    const bounds = new SandboxBounds({
      sandboxId: "s",
      limits: { cpuSeconds: 5 },
      cgroups: controller,
      quotaMounts: mounts(),
    });
    const spec = await new Promise<CommandSpec>(
      (resolve) => void bounds.runCommand(SPEC, async (s) => (resolve(s), OK)),
    );
    expect(spec).toBe(SPEC);
    expect(controller.made).toHaveLength(0);
  });

  it("fails the command when the cgroup cannot be made, and tries again on the next one", async () => {
    const controller = new FakeController();
    controller.failNext = true;
    const bounds = new SandboxBounds({
      sandboxId: "s",
      limits: { memoryBytes: 1 << 20 },
      cgroups: controller,
      quotaMounts: mounts(),
    });
    let ran = false;
    await expect(bounds.runCommand(SPEC, async () => ((ran = true), OK))).rejects.toMatchObject({
      code: "UNAVAILABLE",
    });
    expect(ran).toBe(false);
    expect((await bounds.runCommand(SPEC, async () => OK)).stdout).toBe("ok\n");
  });

  it("appends the memory notice when the OOM-kill counter moved during the command", async () => {
    const controller = new FakeController();
    const bounds = new SandboxBounds({
      sandboxId: "s",
      limits: { memoryBytes: 128 << 20 },
      cgroups: controller,
      quotaMounts: mounts(),
    });
    const result = await bounds.runCommand(SPEC, async () => {
      (controller.made[0] as FakeCgroup).events = { oomKills: 2, limitHits: undefined };
      return { ...OK, stdout: "", stderr: "Killed\n", exitCode: 137 };
    });
    expect(result.exitCode).toBe(137);
    expect(result.stderr).toBe(
      "Killed\n\n[Memory limit reached: the sandbox's processes together reached its memory bound of 128.0 MiB (/tmp, shared memory and memfd included), and the kernel killed 2 processes (SIGKILL, exit code 137).]",
    );
    const calm = await bounds.runCommand(SPEC, async () => OK);
    expect(calm.stderr).toBe("");
  });

  it("resolves as killed, with the notice, when the OOM killer took the runner's own process", async () => {
    const controller = new FakeController();
    const bounds = new SandboxBounds({
      sandboxId: "s",
      limits: { memoryBytes: 1 << 20 },
      cgroups: controller,
      quotaMounts: mounts(),
    });
    const result = await bounds.runCommand(SPEC, async () => {
      (controller.made[0] as FakeCgroup).events = { oomKills: 1, limitHits: undefined };
      throw new SandboxError("UNAVAILABLE", "the executor stopped");
    });
    expect(result).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(result.stderr).toContain(MEMORY_LIMIT_NOTICE_PREFIX);
    // Without an OOM kill, the runner's failure stands.
    await expect(
      bounds.runCommand(SPEC, async () => Promise.reject(new SandboxError("UNAVAILABLE", "bwrap vanished"))),
    ).rejects.toMatchObject({ code: "UNAVAILABLE" });
  });

  it("falls back to limit hits plus a SIGKILL exit where the kernel counts no OOM kills", async () => {
    const controller = new FakeController();
    const bounds = new SandboxBounds({
      sandboxId: "s",
      limits: { memoryBytes: 1 << 20 },
      cgroups: controller,
      quotaMounts: mounts(),
    });
    await bounds.runCommand(SPEC, async () => OK);
    const cgroup = controller.made[0] as FakeCgroup;
    cgroup.events = { oomKills: undefined, limitHits: 1 };
    const hitButAlive = await bounds.runCommand(SPEC, async () => {
      cgroup.events = { oomKills: undefined, limitHits: 5 };
      return OK;
    });
    expect(hitButAlive.stderr).toBe("");
    const killed = await bounds.runCommand(SPEC, async () => {
      cgroup.events = { oomKills: undefined, limitHits: 9 };
      return { ...OK, exitCode: null, signal: "SIGKILL" };
    });
    expect(killed.stderr).toContain(MEMORY_LIMIT_NOTICE_PREFIX);
  });

  it("release closes the cgroup; the next command makes a new one", async () => {
    const controller = new FakeController();
    const bounds = new SandboxBounds({
      sandboxId: "s",
      limits: { processes: 4 },
      cgroups: controller,
      quotaMounts: mounts(),
    });
    await bounds.runCommand(SPEC, async () => OK);
    await bounds.release();
    await bounds.release();
    expect(controller.made[0]?.closed).toBe(1);
    expect((await bounds.status()).cgroup).toBeUndefined();
    await bounds.runCommand(SPEC, async () => OK);
    expect(controller.made).toHaveLength(2);
    expect((await bounds.status()).cgroup?.bounds).toEqual({ pids: 20 });
  });

  it("rejects a cpuWeight outside 1-10000", () => {
    expect(() => new SandboxBounds({ sandboxId: "s", limits: { cpuWeight: 0 }, quotaMounts: mounts() })).toThrow(
      /cpuWeight/,
    );
  });
});

describe("SandboxBounds: disk quota", () => {
  it("lowers the command's file-size limit to what the quota has left plus one byte, never raising it", async () => {
    await writeFile(path.join(workspace, "a"), Buffer.alloc(400));
    const bounds = new SandboxBounds({ sandboxId: "s", limits: { diskBytes: 1000 }, quotaMounts: mounts() });
    const seen: CommandSpec[] = [];
    await bounds.runCommand({ ...SPEC, limits: { fileSizeBytes: 10_000 } }, async (spec) => (seen.push(spec), OK));
    await bounds.runCommand({ ...SPEC, limits: { fileSizeBytes: 10 } }, async (spec) => (seen.push(spec), OK));
    expect(seen.map((s) => s.limits.fileSizeBytes)).toEqual([601, 10]);
  });

  it("stops a command that crosses the quota while it runs and resolves with the notice", async () => {
    const bounds = new SandboxBounds({
      sandboxId: "s",
      limits: { diskBytes: 1000 },
      quotaMounts: mounts(),
      quotaPollIntervalMs: 10,
    });
    const result = await bounds.runCommand(SPEC, async (spec) => {
      await writeFile(path.join(workspace, "big"), Buffer.alloc(5000));
      await untilAborted(spec);
      return OK;
    });
    expect(result).toMatchObject({ exitCode: null, signal: "SIGKILL", timedOut: false, stdout: "" });
    expect(result.stderr).toBe(
      `\n${DISK_QUOTA_NOTICE_PREFIX} the thread's files (workspace, uploads, outputs) take 4.9 KiB in 1 entry; the quota is 1000 bytes and 1,000,000 entries. The command was stopped; files already written were kept. Delete files to free space.]`,
    );
  });

  it("passes the caller's abort through as ABORTED", async () => {
    const bounds = new SandboxBounds({ sandboxId: "s", limits: { diskBytes: 1000 }, quotaMounts: mounts() });
    const controller = new AbortController();
    const run = bounds.runCommand({ ...SPEC, signal: controller.signal }, async (spec) => {
      await untilAborted(spec);
      return OK;
    });
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: "ABORTED" });
  });

  it("tells a command that finished past the quota, and one cut by the lowered file-size limit", async () => {
    const bounds = new SandboxBounds({
      sandboxId: "s",
      limits: { diskBytes: 1000, diskFiles: 5 },
      quotaMounts: mounts(),
      quotaPollIntervalMs: 60_000,
    });
    const crossed = await bounds.runCommand(SPEC, async () => {
      await writeFile(path.join(workspace, "big"), Buffer.alloc(2000));
      return OK;
    });
    expect(crossed.exitCode).toBe(0);
    expect(crossed.stderr).toContain("Files already written were kept.");
    await rm(path.join(workspace, "big"));
    await bounds.quota?.measure();
    const cut = await bounds.runCommand(SPEC, async () => ({
      ...OK,
      exitCode: 153,
      stderr: "File size limit exceeded\n",
    }));
    expect(cut.stderr).toContain("The command started with 1000 bytes left in the quota");
  });

  it("charges file-API writes only inside the quota's mounts", async () => {
    const bounds = new SandboxBounds({ sandboxId: "s", limits: { diskBytes: 10 }, quotaMounts: mounts() });
    const change = { bytes: 100, existingBytes: 0, append: false, created: true, createdDirs: 0 };
    await bounds.writeHooks.beforeWrite({ ...change, virtualPath: "/mnt/datasets/x" });
    await expect(
      bounds.writeHooks.beforeWrite({ ...change, virtualPath: "/mnt/user-data/workspace/x" }),
    ).rejects.toMatchObject({ code: "QUOTA_EXCEEDED" });
  });
});
