/**
 * Sandbox cgroups on cgroup v1: one directory per sandbox in each of the
 * `memory`, `pids` and `cpu` hierarchies that are mounted read-write.
 */
import path from "node:path";
import { SandboxError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import { cpuWeightToShares } from "./cgroup-bounds.js";
import {
  hasControl,
  keyedCounter,
  killCgroupProcesses,
  makeCgroupDir,
  readControl,
  readNumber,
  removeCgroupDir,
  sandboxCgroupName,
  writeControl,
} from "./cgroup-files.js";
import type {
  CgroupBounds,
  CgroupController,
  CgroupMemoryEvents,
  CgroupMemoryStatus,
  EnforcedBounds,
  SandboxCgroup,
} from "./cgroup-types.js";

/** v1 controllers this package uses. */
export type V1Controller = "memory" | "pids" | "cpu";

/** Folder holding the sandbox cgroups in each usable hierarchy (created already). */
export type V1ParentDirs = Partial<Record<V1Controller, string>>;

const ORDER: readonly V1Controller[] = ["memory", "pids", "cpu"];

/**
 * Makes sandbox cgroups in the v1 hierarchies given.
 *
 * @example
 * ```ts
 * const controller = new CgroupV1Controller({ memory: "/sys/fs/cgroup/memory/deerflow-sandboxes" });
 * const cgroup = await controller.create("local:alice:t1", { memoryBytes: 512 << 20 });
 * ```
 */
export class CgroupV1Controller implements CgroupController {
  readonly version = "v1";
  readonly controllers: readonly V1Controller[];
  readonly #parents: V1ParentDirs;
  readonly #logger: Logger;

  /**
   * @param parents - Existing parent folders, by controller.
   * @param logger - For cleanup problems.
   */
  constructor(parents: V1ParentDirs, logger: Logger = silentLogger) {
    this.#parents = { ...parents };
    this.controllers = ORDER.filter((c) => parents[c] !== undefined);
    this.#logger = logger;
  }

  /** {@inheritDoc CgroupController.create} */
  async create(sandboxId: string, bounds: CgroupBounds): Promise<SandboxCgroup> {
    const name = sandboxCgroupName(sandboxId);
    const dirs: Partial<Record<V1Controller, string>> = {};
    try {
      for (const controller of this.controllers) {
        const dir = path.join(this.#parents[controller] as string, name);
        await makeCgroupDir(dir);
        dirs[controller] = dir;
      }
      if (dirs.memory !== undefined && bounds.memoryBytes !== undefined) {
        await writeControl(dirs.memory, "memory.limit_in_bytes", bounds.memoryBytes);
        // memsw (memory + swap) exists only with swap accounting; without it, keep the cgroup out of swap.
        if (await hasControl(dirs.memory, "memory.memsw.limit_in_bytes"))
          await writeControl(dirs.memory, "memory.memsw.limit_in_bytes", bounds.memoryBytes);
        else await writeControl(dirs.memory, "memory.swappiness", 0).catch(() => undefined);
      }
      if (dirs.pids !== undefined && bounds.pids !== undefined) await writeControl(dirs.pids, "pids.max", bounds.pids);
      if (dirs.cpu !== undefined && bounds.cpuWeight !== undefined)
        await writeControl(dirs.cpu, "cpu.shares", cpuWeightToShares(bounds.cpuWeight));
    } catch (err) {
      await Promise.all(Object.values(dirs).map((dir) => removeCgroupDir(dir)));
      throw err;
    }
    const enforced: EnforcedBounds = {
      memory: dirs.memory !== undefined && bounds.memoryBytes !== undefined,
      pids: dirs.pids !== undefined && bounds.pids !== undefined,
      cpu: dirs.cpu !== undefined && bounds.cpuWeight !== undefined,
    };
    return new V1SandboxCgroup(name, dirs, bounds, enforced, this.#logger);
  }
}

class V1SandboxCgroup implements SandboxCgroup {
  readonly version = "v1";
  readonly name: string;
  readonly bounds: CgroupBounds;
  readonly enforced: EnforcedBounds;
  readonly #dirs: Partial<Record<V1Controller, string>>;
  readonly #logger: Logger;
  #closed: Promise<void> | undefined;

  constructor(
    name: string,
    dirs: Partial<Record<V1Controller, string>>,
    bounds: CgroupBounds,
    enforced: EnforcedBounds,
    logger: Logger,
  ) {
    this.name = name;
    this.#dirs = dirs;
    this.bounds = bounds;
    this.enforced = enforced;
    this.#logger = logger;
  }

  async attach(pid: number): Promise<void> {
    if (this.#closed !== undefined) throw new SandboxError("UNAVAILABLE", "cgroup: the sandbox's cgroup was removed");
    // The process waits behind its start gate, so the hierarchies can be joined in any order, at once.
    await Promise.all(Object.values(this.#dirs).map((dir) => writeControl(dir, "cgroup.procs", pid)));
  }

  async memoryStatus(): Promise<CgroupMemoryStatus | undefined> {
    const dir = this.#dirs.memory;
    if (dir === undefined) return undefined;
    const [current, peak, oomControl, failcnt] = await Promise.all([
      readNumber(dir, "memory.usage_in_bytes"),
      readNumber(dir, "memory.max_usage_in_bytes"),
      readControl(dir, "memory.oom_control"),
      readNumber(dir, "memory.failcnt"),
    ]);
    return {
      currentBytes: current ?? 0,
      peakBytes: peak,
      oomKills: keyedCounter(oomControl, "oom_kill"),
      limitHits: failcnt,
    };
  }

  async memoryEvents(): Promise<CgroupMemoryEvents | undefined> {
    const dir = this.#dirs.memory;
    if (dir === undefined) return undefined;
    const oomKills = keyedCounter(await readControl(dir, "memory.oom_control"), "oom_kill");
    // Kernels before 4.13 have no oom_kill counter: fall back to the limit's hit count.
    return oomKills === undefined
      ? { oomKills, limitHits: await readNumber(dir, "memory.failcnt") }
      : { oomKills, limitHits: undefined };
  }

  async killAll(): Promise<void> {
    // Once attached, a process is in every hierarchy: one list covers it.
    const dir = this.#dirs.pids ?? this.#dirs.memory ?? this.#dirs.cpu;
    if (dir !== undefined && !(await killCgroupProcesses(dir, false)))
      this.#logger.warn({}, "cgroup: processes survived SIGKILL");
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.killAll();
      for (const dir of Object.values(this.#dirs)) {
        if (!(await removeCgroupDir(dir)))
          this.#logger.warn({ cgroup: path.basename(dir) }, "cgroup: could not remove a sandbox cgroup");
      }
    })();
    return this.#closed;
  }
}
