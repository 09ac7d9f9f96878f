import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ownCgroupDir, parseCgroupMounts, parseOwnCgroups, readHostCgroups } from "./host-cgroups.js";

/** This project's CI machines: v1 controllers read-write, an empty v2 hierarchy. */
const HYBRID_MOUNTINFO = `31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`;
const HYBRID_CGROUP = `9:name=systemd:/
8:pids:/
4:memory:/process_api/b21279d086fc368db231be85abc2d96e
2:cpuacct:/
1:cpu:/
0::/
`;

/** A systemd host with the unified hierarchy only. */
const UNIFIED_MOUNTINFO = `25 30 0:23 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
`;

/** A container that sees a read-only subtree of a combined cpu,cpuacct hierarchy. */
const CONTAINER_MOUNTINFO = `700 690 0:40 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid,nodev,noexec,relatime master:20 - cgroup cgroup rw,cpu,cpuacct
701 690 0:41 /docker/abc /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime master:21 - cgroup cgroup rw,memory
`;

describe("parseCgroupMounts", () => {
  it("finds v1 hierarchies with their controllers and the v2 mount", () => {
    const mounts = parseCgroupMounts(HYBRID_MOUNTINFO);
    expect(mounts.map((m) => [m.type, m.mountPoint, m.controllers.join(","), m.writable])).toEqual([
      ["cgroup", "/sys/fs/cgroup/cpu", "cpu", true],
      ["cgroup", "/sys/fs/cgroup/cpuacct", "cpuacct", true],
      ["cgroup", "/sys/fs/cgroup/memory", "memory", true],
      ["cgroup", "/sys/fs/cgroup/pids", "pids", true],
      ["cgroup", "/sys/fs/cgroup/systemd", "", true],
      ["cgroup2", "/sys/fs/cgroup/unified", "", true],
    ]);
  });

  it("reads the unified-only layout", () => {
    expect(parseCgroupMounts(UNIFIED_MOUNTINFO)).toEqual([
      { type: "cgroup2", mountPoint: "/sys/fs/cgroup", root: "/", controllers: [], writable: true },
    ]);
  });

  it("keeps the mounted subtree and a read-only mount option", () => {
    const [cpu, memory] = parseCgroupMounts(CONTAINER_MOUNTINFO);
    expect(cpu).toMatchObject({ root: "/docker/abc", controllers: ["cpu", "cpuacct"], writable: false });
    expect(memory).toMatchObject({ root: "/docker/abc", writable: true });
  });
});

describe("parseOwnCgroups", () => {
  it("reads one entry per hierarchy, v2 with hierarchy 0 and no controllers", () => {
    const own = parseOwnCgroups(HYBRID_CGROUP);
    expect(own.find((o) => o.controllers.includes("memory"))?.path).toBe(
      "/process_api/b21279d086fc368db231be85abc2d96e",
    );
    expect(own.find((o) => o.hierarchy === 0)).toEqual({ hierarchy: 0, controllers: [], path: "/" });
    expect(own.find((o) => o.controllers.includes("name=systemd"))?.path).toBe("/");
  });
});

describe("ownCgroupDir", () => {
  const [memory] = parseCgroupMounts(CONTAINER_MOUNTINFO).slice(1);

  it("joins the mount point and the path below the mounted root", () => {
    const [hostMemory] = parseCgroupMounts(HYBRID_MOUNTINFO).filter((m) => m.controllers.includes("memory"));
    expect(ownCgroupDir(hostMemory!, "/process_api/x")).toBe("/sys/fs/cgroup/memory/process_api/x");
    expect(ownCgroupDir(memory!, "/docker/abc/sub")).toBe("/sys/fs/cgroup/memory/sub");
    expect(ownCgroupDir(memory!, "/docker/abc")).toBe("/sys/fs/cgroup/memory");
  });

  it("refuses a cgroup outside the mounted subtree", () => {
    expect(ownCgroupDir(memory!, "/docker/abcdef")).toBeUndefined();
    expect(ownCgroupDir(memory!, "/other")).toBeUndefined();
  });
});

describe("readHostCgroups", () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it("reads mountinfo and cgroup from a proc directory, empty where missing", async () => {
    const proc = await mkdtemp(path.join(os.tmpdir(), "cg-proc-"));
    dirs.push(proc);
    await writeFile(path.join(proc, "mountinfo"), HYBRID_MOUNTINFO);
    await writeFile(path.join(proc, "cgroup"), HYBRID_CGROUP);
    const host = await readHostCgroups(proc);
    expect(host.mounts).toHaveLength(6);
    expect(host.own).toHaveLength(6);
    const empty = path.join(proc, "empty");
    await mkdir(empty);
    expect(await readHostCgroups(empty)).toEqual({ mounts: [], own: [] });
  });
});
