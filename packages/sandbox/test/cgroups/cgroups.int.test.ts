/**
 * The cgroup controllers against this host's kernel: detection, the start
 * gate (nothing forks before the attach), the memory bound with memfd pages,
 * the pids bound, cleanup. Where the host has no writable cgroups the
 * fallback is asserted instead and the suite names say so; under `CI=true`
 * the cgroup suite must run (these machines mount v1 memory and pids
 * read-write).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rmdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SandboxError } from "../../src/errors.js";
import { isRoot } from "../../src/exec/executables.js";
import { runProcessTree } from "../../src/exec/process-tree.js";
import { isRunning, waitFor } from "../support/exec/processes.js";
import type { Logger } from "../../src/logger.js";
import { attachTo } from "../../src/cgroups/attach.js";
import { removeStaleCgroups, sandboxCgroupName } from "../../src/cgroups/cgroup-files.js";
import type { SandboxCgroup } from "../../src/cgroups/cgroup-types.js";
import { CgroupV2Controller } from "../../src/cgroups/cgroup-v2.js";
import { DEFAULT_CGROUP_PARENT, detectCgroups } from "../../src/cgroups/detect-cgroups.js";
import { ownCgroupDir, readHostCgroups } from "../../src/cgroups/host-cgroups.js";
import { NoCgroupController } from "../../src/cgroups/no-cgroup.js";

const logs: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
const logger: Logger = {
  debug: (obj, msg) => logs.push({ level: "debug", obj, msg }),
  info: (obj, msg) => logs.push({ level: "info", obj, msg }),
  warn: (obj, msg) => logs.push({ level: "warn", obj, msg }),
  error: (obj, msg) => logs.push({ level: "error", obj, msg }),
};

const controller = await detectCgroups({ logger });
const usable = controller.version !== "none";
const reason = controller instanceof NoCgroupController ? controller.reason : "";
if (!usable && process.env["CI"] === "true") {
  throw new Error(
    `cgroups are not usable in CI (${reason}); these tests must run there: run as root on a host with writable cgroup v2 or v1 memory/pids`,
  );
}
const host = await readHostCgroups();
const ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };
const MiB = 1024 * 1024;
const python = ["/usr/bin/python3", "/usr/local/bin/python3"].find((p) => existsSync(p));

const made: SandboxCgroup[] = [];
afterAll(async () => {
  await Promise.all(made.map((c) => c.close()));
});

async function create(bounds: Parameters<typeof controller.create>[1]): Promise<SandboxCgroup> {
  const cgroup = await controller.create(`test:${process.pid}`, bounds);
  made.push(cgroup);
  return cgroup;
}

/** Runs `script` with /bin/sh behind the start gate, attached to `cgroup`. */
function gated(cgroup: SandboxCgroup, script: string, timeoutMs = 30_000) {
  return runProcessTree({
    file: "/bin/sh",
    args: ["-c", script],
    env: ENV,
    timeoutMs,
    maxOutputBytes: 1 << 20,
    beforeStart: attachTo(cgroup),
  });
}

describe("detectCgroups", () => {
  it(`logs the choice once (${controller.version}${usable ? `: ${controller.controllers.join(", ")}` : `, ${reason}`})`, async () => {
    const announced = logs.filter((l) => /sandbox cgroups/.test(l.msg));
    expect(announced).toHaveLength(1);
    expect(announced[0]?.obj["cgroup"]).toBe(controller.version);
    expect(await detectCgroups({ logger })).toBe(controller);
  });

  it("finds the writable controllers this host mounts (root only)", () => {
    const writableV1 = ["memory", "pids"].filter((c) =>
      host.mounts.some((m) => m.type === "cgroup" && m.writable && m.controllers.includes(c)),
    );
    if (isRoot() && writableV1.length > 0) {
      expect(controller.version).not.toBe("none");
      for (const c of writableV1) expect(controller.controllers).toContain(c);
    } else if (!usable) {
      expect(reason).not.toBe("");
    }
  });

  // The folder root made above exists, but a user without rights in it must fall back at detection,
  // not get a controller whose every create() fails (each command would then be refused as UNAVAILABLE).
  it.runIf(isRoot() && usable)("falls back to none for a user who cannot create cgroups in an existing parent", () => {
    const script = `const m = await import(${JSON.stringify(path.join(import.meta.dirname, "../../src/cgroups/detect-cgroups.ts"))}); const c = await m.detectCgroups(); console.log(JSON.stringify({ version: c.version, reason: c.reason }));`;
    const child = spawnSync(
      "setpriv",
      [
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        process.execPath,
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        script,
      ],
      {
        cwd: path.resolve(import.meta.dirname, "../.."),
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(child.status, child.stderr).toBe(0);
    const detected = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as { version: string; reason: string };
    expect(detected.version).toBe("none");
    expect(detected.reason).toMatch(/cannot create (a cgroup|cgroups in)/);
  });

  it("is the no-op controller when turned off", async () => {
    const off = await detectCgroups({ mode: "off", logger });
    expect(off.version).toBe("none");
    const cgroup = await off.create("x", { memoryBytes: MiB });
    expect(cgroup.enforced).toEqual({ memory: false, pids: false, cpu: false });
    await cgroup.attach(process.pid);
    expect(await cgroup.memoryStatus()).toBeUndefined();
    await cgroup.close();
  });
});

describe.skipIf(usable)(`fallback: no writable cgroups on this host (${reason || "n/a"}), RLIMITs only`, () => {
  it("makes cgroups that enforce nothing and attach nothing", async () => {
    const cgroup = await controller.create("x", { memoryBytes: 64 * MiB, pids: 10, cpuWeight: 10 });
    expect(cgroup.version).toBe("none");
    expect(cgroup.enforced).toEqual({ memory: false, pids: false, cpu: false });
    const r = await gated(cgroup, "echo ran");
    expect(r.stdout.text()).toBe("ran\n");
  });
});

describe.skipIf(!usable)(
  usable ? `cgroup ${controller.version} (${controller.controllers.join(", ")})` : `cgroup bounds: SKIPPED, ${reason}`,
  () => {
    it("starts a gated child, and everything it forks, inside the sandbox's cgroup", async () => {
      const cgroup = await create({ pids: 64 });
      const r = await gated(cgroup, "cat /proc/self/cgroup; (cat /proc/self/cgroup) & wait");
      const lines = r.stdout
        .text()
        .split("\n")
        .filter((l) => l.includes(cgroup.name));
      // One line per process and hierarchy: both processes are inside, in every hierarchy used.
      const hierarchies = controller.version === "v2" ? 1 : controller.controllers.length;
      expect(lines).toHaveLength(2 * hierarchies);
    });

    it("never runs a command whose attach was refused", async () => {
      const marker = `/tmp/s3-gate-${process.pid}-${Date.now()}`;
      const refuse = async (): Promise<void> => {
        throw new SandboxError("UNAVAILABLE", "refused for the test");
      };
      const run = runProcessTree({
        file: "/bin/sh",
        args: ["-c", `touch ${marker}`],
        env: ENV,
        timeoutMs: 10_000,
        maxOutputBytes: 1024,
        beforeStart: refuse,
      });
      await expect(run).rejects.toMatchObject({ code: "UNAVAILABLE" });
      expect(existsSync(marker)).toBe(false);
    });

    it.runIf(controller.controllers.includes("memory") && python !== undefined)(
      "kills a process whose memfd pages cross the memory bound and counts the kill",
      async () => {
        const limit = 64 * MiB;
        const cgroup = await create({ memoryBytes: limit });
        const before = await cgroup.memoryStatus();
        // 256 MiB of memfd, touched page by page: RLIMIT_DATA does not count it, the cgroup does.
        const script = `import os, mmap\nn = 256 << 20\nfd = os.memfd_create("fill")\nos.ftruncate(fd, n)\nm = mmap.mmap(fd, n)\nfor i in range(0, n, 4096): m[i] = 1\nprint("survived")`;
        const r = await runProcessTree({
          file: python as string,
          args: ["-c", script],
          env: ENV,
          timeoutMs: 60_000,
          maxOutputBytes: 1 << 20,
          beforeStart: attachTo(cgroup),
        });
        expect(r.stdout.text()).not.toContain("survived");
        expect(r.signal).toBe("SIGKILL");
        const after = await cgroup.memoryStatus();
        expect(after?.oomKills).toBeGreaterThan(before?.oomKills ?? 0);
        // The kernel charged no more than the bound (v1 reports the peak; v2 from 5.19).
        if (after?.peakBytes !== undefined) expect(after.peakBytes).toBeLessThanOrEqual(limit);
      },
    );

    it.runIf(controller.controllers.includes("pids"))("stops a fork loop at the pids bound", async () => {
      const cgroup = await create({ pids: 20 });
      const r = await gated(
        cgroup,
        "n=0; while [ $n -lt 100 ]; do (echo s; exec sleep 30) & n=$((n+1)); done 2>/dev/null; exit 0",
      );
      const started = r.stdout
        .text()
        .split("\n")
        .filter((l) => l === "s").length;
      expect(started).toBeGreaterThan(0);
      expect(started).toBeLessThanOrEqual(20);
      await cgroup.killAll();
    });

    it.runIf(controller.controllers.includes("cpu"))(
      "writes the CPU weight (cpu.weight on v2, cpu.shares on v1)",
      async () => {
        const cgroup = await create({ cpuWeight: 50 });
        expect(cgroup.enforced.cpu).toBe(true);
        const r = await gated(cgroup, "echo ok");
        expect(r.exitCode).toBe(0);
        const [file, expected] = controller.version === "v2" ? ["cpu.weight", "50"] : ["cpu.shares", "512"];
        const values = await Promise.all(
          sandboxDirs(cgroup.name).map((dir) => readFile(path.join(dir, file), "utf8").catch(() => undefined)),
        );
        expect(values.filter((v) => v !== undefined).map((v) => (v as string).trim())).toEqual([expected]);
      },
    );

    it("close kills what is left in the cgroup, background and new-session processes included, and removes it", async () => {
      const cgroup = await create({ pids: 64 });
      const r = await gated(cgroup, "setsid sleep 300 >/dev/null 2>&1 & echo $!");
      const pid = Number(r.stdout.text().trim());
      expect(existsSync(`/proc/${pid}`)).toBe(true);
      await cgroup.close();
      expect(await stillRunning(pid)).toBe(false);
      for (const dir of sandboxDirs(cgroup.name)) expect(existsSync(dir)).toBe(false);
      await expect(cgroup.attach(process.pid)).rejects.toMatchObject({ code: "UNAVAILABLE" });
    });

    it("removes the cgroups a dead server left behind", async () => {
      const parents = parentDirs();
      const dead = await runProcessTree({
        file: "/bin/sh",
        args: ["-c", "echo $$"],
        env: ENV,
        timeoutMs: 5_000,
        maxOutputBytes: 64,
      });
      const stale = `${dead.stdout.text().trim()}-1-0123456789ab`;
      for (const parent of parents) await mkdir(path.join(parent, stale));
      for (const parent of parents)
        expect(await removeStaleCgroups(parent, controller.version === "v2")).toBeGreaterThanOrEqual(1);
      for (const parent of parents) expect(existsSync(path.join(parent, stale))).toBe(false);
    });
  },
);

const unified = host.mounts.find((m) => m.type === "cgroup2" && m.writable);
const unifiedOwn = host.own.find((o) => o.hierarchy === 0);
const unifiedDir =
  unified === undefined || unifiedOwn === undefined ? undefined : ownCgroupDir(unified, unifiedOwn.path);

describe.runIf(isRoot() && unifiedDir !== undefined)(
  "CgroupV2Controller on this host's cgroup2 mount (attach, cgroup.kill, removal)",
  () => {
    it("attaches a gated child, kills the whole cgroup and removes it", async () => {
      const parent = path.join(unifiedDir as string, `s3-test-${sandboxCgroupName("parent")}`);
      await mkdir(parent);
      try {
        // Controllers may all be bound to v1 here: no bound is written, membership and kill still work.
        const v2 = new CgroupV2Controller(parent, [], logger);
        const cgroup = await v2.create("v2-test", {});
        const r = await gated(cgroup, "setsid sleep 300 >/dev/null 2>&1 & echo $!; cat /proc/self/cgroup");
        const [pid, ...cgroupLines] = r.stdout.text().trim().split("\n");
        expect(cgroupLines.find((l) => l.startsWith("0::"))).toContain(cgroup.name);
        await cgroup.close();
        expect(await stillRunning(Number(pid))).toBe(false);
        expect(existsSync(path.join(parent, cgroup.name))).toBe(false);
      } finally {
        await rmdir(parent).catch(() => undefined);
      }
    });
  },
);

/** Whether `pid` still runs 5 s from now; a zombie (killed, not yet reaped by PID 1) does not run. */
async function stillRunning(pid: number): Promise<boolean> {
  return !(await waitFor(() => !isRunning(pid), 5_000));
}

/** Folders holding this process's sandbox cgroups, one per hierarchy used. */
function parentDirs(): string[] {
  const out: string[] = [];
  if (controller.version === "v2") {
    if (unifiedDir !== undefined) out.push(path.join(unifiedDir, DEFAULT_CGROUP_PARENT));
    return out;
  }
  for (const c of controller.controllers) {
    const mount = host.mounts.find((m) => m.type === "cgroup" && m.controllers.includes(c));
    const own = host.own.find((o) => o.controllers.includes(c));
    const dir = mount === undefined || own === undefined ? undefined : ownCgroupDir(mount, own.path);
    if (dir !== undefined) out.push(path.join(dir, DEFAULT_CGROUP_PARENT));
  }
  return out;
}

function sandboxDirs(name: string): string[] {
  return parentDirs().map((parent) => path.join(parent, name));
}
