/**
 * Sandbox cgroups on cgroup v2: one directory per sandbox below a parent whose
 * `cgroup.subtree_control` enables the controllers used.
 */
import path from "node:path";
import { SandboxError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
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

/** v2 controllers this package uses. */
export type V2Controller = "memory" | "pids" | "cpu";

/**
 * Makes sandbox cgroups below one v2 parent.
 *
 * @example
 * ```ts
 * const controller = new CgroupV2Controller("/sys/fs/cgroup/deerflow.slice/sandboxes", ["memory", "pids", "cpu"]);
 * const cgroup = await controller.create("local:alice:t1", { memoryBytes: 512 << 20, pids: 272 });
 * ```
 */
export class CgroupV2Controller implements CgroupController {
  readonly version = "v2";
  readonly controllers: readonly V2Controller[];
  readonly #parent: string;
  readonly #logger: Logger;

  /**
   * @param parent - Existing parent folder; its `cgroup.subtree_control` must enable `controllers`.
   * @param controllers - Controllers enabled for the children.
   * @param logger - For cleanup problems.
   */
  constructor(parent: string, controllers: readonly V2Controller[], logger: Logger = silentLogger) {
    this.#parent = parent;
    this.controllers = [...controllers];
    this.#logger = logger;
  }

  /** {@inheritDoc CgroupController.create} */
  async create(sandboxId: string, bounds: CgroupBounds): Promise<SandboxCgroup> {
    const dir = path.join(this.#parent, sandboxCgroupName(sandboxId));
    await makeCgroupDir(dir);
    const has = (c: V2Controller): boolean => this.controllers.includes(c);
    try {
      if (has("memory") && bounds.memoryBytes !== undefined) {
        await writeControl(dir, "memory.max", bounds.memoryBytes);
        // No swap: a bound that spills into swap is no bound (the file is absent without swap accounting).
        if (await hasControl(dir, "memory.swap.max")) await writeControl(dir, "memory.swap.max", 0);
      }
      if (has("pids") && bounds.pids !== undefined) await writeControl(dir, "pids.max", bounds.pids);
      if (has("cpu") && bounds.cpuWeight !== undefined) await writeControl(dir, "cpu.weight", bounds.cpuWeight);
    } catch (err) {
      await removeCgroupDir(dir);
      throw err;
    }
    const enforced: EnforcedBounds = {
      memory: has("memory") && bounds.memoryBytes !== undefined,
      pids: has("pids") && bounds.pids !== undefined,
      cpu: has("cpu") && bounds.cpuWeight !== undefined,
    };
    return new V2SandboxCgroup(dir, bounds, enforced, has("memory"), this.#logger);
  }
}

class V2SandboxCgroup implements SandboxCgroup {
  readonly version = "v2";
  readonly name: string;
  readonly bounds: CgroupBounds;
  readonly enforced: EnforcedBounds;
  readonly #dir: string;
  readonly #memory: boolean;
  readonly #logger: Logger;
  #closed: Promise<void> | undefined;

  constructor(dir: string, bounds: CgroupBounds, enforced: EnforcedBounds, memory: boolean, logger: Logger) {
    this.#dir = dir;
    this.name = path.basename(dir);
    this.bounds = bounds;
    this.enforced = enforced;
    this.#memory = memory;
    this.#logger = logger;
  }

  async attach(pid: number): Promise<void> {
    if (this.#closed !== undefined) throw new SandboxError("UNAVAILABLE", "cgroup: the sandbox's cgroup was removed");
    await writeControl(this.#dir, "cgroup.procs", pid);
  }

  async memoryStatus(): Promise<CgroupMemoryStatus | undefined> {
    if (!this.#memory) return undefined;
    const [current, peak, events] = await Promise.all([
      readNumber(this.#dir, "memory.current"),
      readNumber(this.#dir, "memory.peak"),
      readControl(this.#dir, "memory.events"),
    ]);
    return {
      currentBytes: current ?? 0,
      peakBytes: peak,
      oomKills: keyedCounter(events, "oom_kill"),
      limitHits: keyedCounter(events, "max"),
    };
  }

  async memoryEvents(): Promise<CgroupMemoryEvents | undefined> {
    if (!this.#memory) return undefined;
    const events = await readControl(this.#dir, "memory.events");
    return { oomKills: keyedCounter(events, "oom_kill"), limitHits: keyedCounter(events, "max") };
  }

  async killAll(): Promise<void> {
    const killFile = await hasControl(this.#dir, "cgroup.kill");
    if (!(await killCgroupProcesses(this.#dir, killFile))) this.#logger.warn({}, "cgroup: processes survived SIGKILL");
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.killAll();
      if (!(await removeCgroupDir(this.#dir)))
        this.#logger.warn({ cgroup: path.basename(this.#dir) }, "cgroup: could not remove a sandbox cgroup");
    })();
    return this.#closed;
  }
}
