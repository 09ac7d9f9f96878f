/**
 * The fallback where the host has no writable cgroups: nothing is created,
 * and only the RLIMITs bound commands.
 */
import type { CgroupBounds, CgroupController, EnforcedBounds, SandboxCgroup } from "./cgroup-types.js";

const NOTHING: EnforcedBounds = { memory: false, pids: false, cpu: false };

/** A cgroup that enforces nothing: `attach` and `close` do nothing. */
class NoSandboxCgroup implements SandboxCgroup {
  readonly version = "none";
  readonly name = "";
  readonly enforced = NOTHING;
  readonly bounds: CgroupBounds;

  constructor(bounds: CgroupBounds) {
    this.bounds = bounds;
  }

  async attach(_pid: number): Promise<void> {}
  async memoryStatus(): Promise<undefined> {
    return undefined;
  }
  async memoryEvents(): Promise<undefined> {
    return undefined;
  }
  async killAll(): Promise<void> {}
  async close(): Promise<void> {}
}

/**
 * The no-op controller: every sandbox gets a cgroup that bounds nothing.
 *
 * @example
 * ```ts
 * const provider = new LocalSandboxProvider({ baseDir, runner, cgroups: new NoCgroupController("disabled by configuration") });
 * ```
 */
export class NoCgroupController implements CgroupController {
  readonly version = "none";
  readonly controllers: readonly string[] = [];
  /** Why cgroups are not used (logged by detection). */
  readonly reason: string;

  /** @param reason - Why cgroups are not used. */
  constructor(reason = "cgroups disabled") {
    this.reason = reason;
  }

  async create(_sandboxId: string, bounds: CgroupBounds): Promise<SandboxCgroup> {
    return new NoSandboxCgroup(bounds);
  }
}
