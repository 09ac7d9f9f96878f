/**
 * CgroupV2Controller and CgroupV1Controller against a fake cgroup tree (a temp folder): which files
 * it writes and how it reads the counters. The kernel side (attach, kill,
 * removal) is covered by cgroups.int.test.ts on a real cgroup2 mount.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CgroupV1Controller } from "./cgroup-v1.js";
import { CgroupV2Controller } from "./cgroup-v2.js";

let parent: string;
beforeEach(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), "fake-cgroup-"));
});
afterEach(() => rm(parent, { recursive: true, force: true }));

async function only(dir: string): Promise<string> {
  const [name] = await readdir(dir);
  return path.join(dir, name as string);
}

describe("CgroupV2Controller (fake tree)", () => {
  it("writes memory.max, pids.max and cpu.weight, and memory.swap.max=0 where the kernel offers it", async () => {
    const controller = new CgroupV2Controller(parent, ["memory", "pids", "cpu"]);
    const cgroup = await controller.create("local:alice:t1", { memoryBytes: 256 << 20, pids: 80, cpuWeight: 50 });
    const dir = await only(parent);
    expect(cgroup.name).toBe(path.basename(dir));
    expect(cgroup.name).toMatch(new RegExp(`^${process.pid}-\\d+-[0-9a-f]{12}$`));
    expect(await readFile(path.join(dir, "memory.max"), "utf8")).toBe(String(256 << 20));
    expect(await readFile(path.join(dir, "pids.max"), "utf8")).toBe("80");
    expect(await readFile(path.join(dir, "cpu.weight"), "utf8")).toBe("50");
    // The fake has no memory.swap.max (no swap accounting): nothing is created for it.
    await expect(readFile(path.join(dir, "memory.swap.max"), "utf8")).rejects.toThrow();
    expect(cgroup.enforced).toEqual({ memory: true, pids: true, cpu: true });
  });

  it("leaves out bounds whose controller is not enabled", async () => {
    const cgroup = await new CgroupV2Controller(parent, ["pids"]).create("x", { memoryBytes: 1 << 20, pids: 10 });
    expect(cgroup.enforced).toEqual({ memory: false, pids: true, cpu: false });
    expect(await readdir(await only(parent))).toEqual(["pids.max"]);
    expect(await cgroup.memoryStatus()).toBeUndefined();
  });

  it("reads memory.current, memory.peak and the oom_kill and max events", async () => {
    const cgroup = await new CgroupV2Controller(parent, ["memory"]).create("x", { memoryBytes: 1 << 20 });
    const dir = await only(parent);
    await writeFile(path.join(dir, "memory.current"), "4096\n");
    await writeFile(path.join(dir, "memory.peak"), "1048576\n");
    await writeFile(path.join(dir, "memory.events"), "low 0\nhigh 0\nmax 7\noom 2\noom_kill 2\noom_group_kill 0\n");
    expect(await cgroup.memoryStatus()).toEqual({ currentBytes: 4096, peakBytes: 1 << 20, oomKills: 2, limitHits: 7 });
    expect(await cgroup.memoryEvents()).toEqual({ oomKills: 2, limitHits: 7 });
  });

  it("attaches by writing the pid to cgroup.procs", async () => {
    const cgroup = await new CgroupV2Controller(parent, []).create("x", {});
    await cgroup.attach(4242);
    expect(await readFile(path.join(await only(parent), "cgroup.procs"), "utf8")).toBe("4242");
  });
});

describe("CgroupV1Controller (fake tree)", () => {
  it("writes one directory per hierarchy, with memsw when swap accounting exists, and cpu.shares", async () => {
    const memory = path.join(parent, "memory");
    const pids = path.join(parent, "pids");
    const cpu = path.join(parent, "cpu");
    for (const d of [memory, pids, cpu]) await mkdir(d);
    const cgroup = await new CgroupV1Controller({ memory, pids, cpu }).create("x", {
      memoryBytes: 1 << 20,
      pids: 30,
      cpuWeight: 200,
    });
    expect(await readFile(path.join(memory, cgroup.name, "memory.limit_in_bytes"), "utf8")).toBe(String(1 << 20));
    // No memory.memsw.* in the fake: the cgroup is kept out of swap instead.
    expect(await readFile(path.join(memory, cgroup.name, "memory.swappiness"), "utf8")).toBe("0");
    expect(await readFile(path.join(pids, cgroup.name, "pids.max"), "utf8")).toBe("30");
    expect(await readFile(path.join(cpu, cgroup.name, "cpu.shares"), "utf8")).toBe("2048");
    await writeFile(
      path.join(memory, cgroup.name, "memory.oom_control"),
      "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n",
    );
    await writeFile(path.join(memory, cgroup.name, "memory.usage_in_bytes"), "100\n");
    await writeFile(path.join(memory, cgroup.name, "memory.max_usage_in_bytes"), "200\n");
    await writeFile(path.join(memory, cgroup.name, "memory.failcnt"), "5\n");
    expect(await cgroup.memoryStatus()).toEqual({ currentBytes: 100, peakBytes: 200, oomKills: 3, limitHits: 5 });
    expect(await cgroup.memoryEvents()).toEqual({ oomKills: 3, limitHits: undefined });
    await writeFile(path.join(memory, cgroup.name, "memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\n");
    expect(await cgroup.memoryEvents()).toEqual({ oomKills: undefined, limitHits: 5 });
    await cgroup.attach(77);
    for (const d of [memory, pids, cpu])
      expect(await readFile(path.join(d, cgroup.name, "cgroup.procs"), "utf8")).toBe("77");
  });
});
