/**
 * The cgroup seam: one {@link SandboxCgroup} per sandbox, made by a
 * {@link CgroupController} (v2, v1, or the no-op fallback). Every process of
 * the sandbox is placed in it, so memory (shared memory, memfd and `/tmp`
 * pages included), process count and CPU share are bounded per sandbox, not
 * per process as with RLIMITs.
 */

/** Which cgroup hierarchy enforces the bounds. */
export type CgroupVersion = "v2" | "v1" | "none";

/** Bounds of one sandbox's cgroup; an unset bound is not applied. */
export interface CgroupBounds {
  /** Memory of every process together, page cache, tmpfs, shm and memfd pages included; no swap. */
  readonly memoryBytes?: number;
  /** Tasks (processes and threads) at once, the sandbox's own wrapper processes included. */
  readonly pids?: number;
  /** CPU weight, 1–10000 (cgroup v2's scale; 100 is the default share). */
  readonly cpuWeight?: number;
}

/** Which of the requested bounds the host actually enforces. */
export interface EnforcedBounds {
  readonly memory: boolean;
  readonly pids: boolean;
  readonly cpu: boolean;
}

/** Memory counters of a cgroup. */
export interface CgroupMemoryStatus {
  /** Bytes charged now. */
  readonly currentBytes: number;
  /** Highest charge seen, when the kernel reports it (v1 always, v2 from Linux 5.19). */
  readonly peakBytes: number | undefined;
  /** Processes the kernel's OOM killer killed in this cgroup, when the kernel reports it. */
  readonly oomKills: number | undefined;
  /** Times the limit was hit (v1 `memory.failcnt`, v2 `memory.events` max). */
  readonly limitHits: number | undefined;
}

/** The memory counters read around every command (one control file where the kernel allows). */
export type CgroupMemoryEvents = Pick<CgroupMemoryStatus, "oomKills" | "limitHits">;

/** What a command runner needs: placing its child in the cgroup before it runs anything. */
export interface CommandCgroup {
  /**
   * Moves a process into the cgroup. Call it before the process starts user
   * code: children forked earlier would stay outside.
   *
   * @param pid - Host pid of the (still gated) process.
   * @throws SandboxError `UNAVAILABLE` when the kernel refuses.
   */
  attach(pid: number): Promise<void>;
}

/** The cgroup of one sandbox. */
export interface SandboxCgroup extends CommandCgroup {
  readonly version: CgroupVersion;
  /** Directory name of the cgroup in each hierarchy (`<server pid>-<n>-<hash>`); empty for the no-op one. */
  readonly name: string;
  /** The bounds written to it. */
  readonly bounds: CgroupBounds;
  /** Which bounds hold on this host. */
  readonly enforced: EnforcedBounds;
  /** Memory counters, or `undefined` without a memory controller. */
  memoryStatus(): Promise<CgroupMemoryStatus | undefined>;
  /** Just the OOM-kill and limit-hit counters (cheaper), or `undefined` without a memory controller. */
  memoryEvents(): Promise<CgroupMemoryEvents | undefined>;
  /** SIGKILLs every process in the cgroup and waits (briefly) until it is empty. */
  killAll(): Promise<void>;
  /** Kills what is left and removes the cgroup; idempotent. */
  close(): Promise<void>;
}

/** Makes sandbox cgroups on this host. */
export interface CgroupController {
  readonly version: CgroupVersion;
  /** Controllers that work here (`memory`, `pids`, `cpu`). */
  readonly controllers: readonly string[];
  /**
   * Creates the cgroup of one sandbox.
   *
   * @param sandboxId - Names the cgroup (hashed; any string is fine).
   * @param bounds - What to write.
   * @throws SandboxError `UNAVAILABLE` when the kernel refuses.
   */
  create(sandboxId: string, bounds: CgroupBounds): Promise<SandboxCgroup>;
}
