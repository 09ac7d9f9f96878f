/**
 * `SandboxBounds`: the per-sandbox bounds of a `LocalSandbox` in one place —
 * its cgroup (memory with shared memory and `/tmp`, pids, CPU weight), made
 * lazily on the first command and removed on release, and its thread's disk
 * quota, checked on tool writes and around every command. Commands that hit
 * a bound get a notice on stderr saying which and why.
 */
import { hasCgroupBounds, cgroupBoundsFromLimits } from "../cgroups/cgroup-bounds.js";
import type {
  CgroupBounds,
  CgroupController,
  CgroupMemoryEvents,
  CgroupMemoryStatus,
  CgroupVersion,
  EnforcedBounds,
  SandboxCgroup,
} from "../cgroups/cgroup-types.js";
import { SandboxError } from "../errors.js";
import type { CommandSpec } from "../exec/command-runner.js";
import { silentLogger, type Logger } from "../logger.js";
import type { Mount } from "../mount.js";
import { isPathInside } from "@deerflow/kernel";
import { DiskQuota, type QuotaWriteChange } from "../quota/disk-quota.js";
import type { DiskUsage } from "../quota/disk-usage.js";
import type { ExecuteResult } from "../sandbox.js";
import { memoryLimitNotice, quotaNotice, type QuotaFigures } from "./bound-messages.js";
import type { ResourceLimits } from "../exec/command-runner.js";

/** Options of {@link SandboxBounds}. */
export interface SandboxBoundsOptions {
  /** Names the cgroup. */
  readonly sandboxId: string;
  /** `memoryBytes`, `processes`, `cpuWeight` (cgroup) and `diskBytes`, `diskFiles` (quota) are used. */
  readonly limits: ResourceLimits;
  /** Makes the cgroup; without one (or with the no-op controller) only RLIMITs apply. */
  readonly cgroups?: CgroupController | Promise<CgroupController>;
  /** Mounts the disk quota counts together (the thread's workspace, uploads and outputs). */
  readonly quotaMounts: readonly Mount[];
  /** How often a running command's folders are measured. Default 250 ms. */
  readonly quotaPollIntervalMs?: number;
  readonly logger?: Logger;
}

/** What {@link SandboxBounds.status} reports. */
export interface SandboxBoundsStatus {
  /** The live cgroup, or `undefined` when none exists (no bound asked, no cgroups, or not yet made). */
  readonly cgroup:
    | {
        readonly version: CgroupVersion;
        readonly bounds: CgroupBounds;
        readonly enforced: EnforcedBounds;
        readonly memory: CgroupMemoryStatus | undefined;
      }
    | undefined;
  /** The disk quota and a fresh measurement, or `undefined` without a quota. */
  readonly disk: { readonly limits: QuotaFigures; readonly usage: DiskUsage } | undefined;
}

const KILLED_RESULT: ExecuteResult = {
  stdout: "",
  stderr: "",
  exitCode: null,
  signal: "SIGKILL",
  timedOut: false,
  truncated: false,
};

function withIncomplete(usage: DiskUsage): { incomplete?: string } {
  return usage.incomplete === undefined ? {} : { incomplete: usage.incomplete };
}

/** SIGXFSZ shows as the leader's signal, a shell's 128 + 25, or the shell's message. */
function hitFileSizeLimit(result: ExecuteResult): boolean {
  return result.signal === "SIGXFSZ" || result.exitCode === 153 || /File size limit exceeded/.test(result.stderr);
}

/**
 * The cgroup and disk quota of one sandbox.
 *
 * @example
 * ```ts
 * const bounds = new SandboxBounds({ sandboxId, limits: { memoryBytes: 512 << 20, diskBytes: 1 << 30 },
 *   cgroups: detectCgroups({ logger }), quotaMounts: threadMounts });
 * const result = await bounds.runCommand(spec, (s) => runner.run(s));
 * await bounds.release(); // kills what is left in the cgroup and removes it
 * ```
 */
export class SandboxBounds {
  /** The thread's disk quota, when `diskBytes` or `diskFiles` is set. */
  readonly quota: DiskQuota | undefined;
  readonly #sandboxId: string;
  readonly #cgroupBounds: CgroupBounds;
  readonly #cgroups: CgroupController | Promise<CgroupController> | undefined;
  readonly #logger: Logger;
  readonly #quotaPaths: readonly string[];
  #cgroup: Promise<SandboxCgroup | undefined> | undefined;

  /**
   * @param options - See {@link SandboxBoundsOptions}.
   * @throws SandboxError `INVALID_ARGUMENT` for a bad `cpuWeight`, `diskBytes` or `diskFiles`.
   */
  constructor(options: SandboxBoundsOptions) {
    const { limits } = options;
    this.#sandboxId = options.sandboxId;
    this.#cgroupBounds = cgroupBoundsFromLimits(limits);
    this.#cgroups = options.cgroups;
    this.#logger = options.logger ?? silentLogger;
    this.#quotaPaths = options.quotaMounts.map((m) => m.virtualPath);
    this.quota =
      limits.diskBytes === undefined && limits.diskFiles === undefined
        ? undefined
        : new DiskQuota({
            roots: options.quotaMounts.map((m) => m.hostPath),
            limits: {
              ...(limits.diskBytes === undefined ? {} : { bytes: limits.diskBytes }),
              ...(limits.diskFiles === undefined ? {} : { files: limits.diskFiles }),
            },
            ...(options.quotaPollIntervalMs === undefined ? {} : { pollIntervalMs: options.quotaPollIntervalMs }),
            logger: this.#logger,
          });
  }

  /** The sandbox's cgroup, made on first use; `undefined` when no cgroup bound applies. */
  #ensureCgroup(): Promise<SandboxCgroup | undefined> {
    if (this.#cgroups === undefined || !hasCgroupBounds(this.#cgroupBounds)) return Promise.resolve(undefined);
    const cgroups = this.#cgroups;
    const creating = (this.#cgroup ??= (async () => {
      const controller = await cgroups;
      if (controller.version === "none") return undefined;
      const cgroup = await controller.create(this.#sandboxId, this.#cgroupBounds);
      this.#logger.debug(
        { sandboxId: this.#sandboxId, cgroup: cgroup.version, bounds: cgroup.bounds },
        "sandbox cgroup created",
      );
      return cgroup;
    })());
    // A failed creation is tried again by the next command; this one fails (no command runs unbounded).
    return creating.catch((err: unknown) => {
      if (this.#cgroup === creating) this.#cgroup = undefined;
      throw err;
    });
  }

  /**
   * Runs one command within the bounds: in the sandbox's cgroup, with the
   * file-size limit lowered to what the quota has left, polled for the quota
   * while it runs (and stopped when it crosses it), then measured.
   *
   * @param spec - The command as the sandbox built it.
   * @param run - Runs it (the runner); must honour `spec.signal` and `spec.cgroup`.
   * @returns The runner's result, with a notice appended to stderr when a
   *   bound was hit; a command stopped for the quota resolves with exit code
   *   `null`, signal `SIGKILL` and the notice.
   * @throws SandboxError `UNAVAILABLE` when the cgroup cannot be made; whatever `run` throws.
   */
  async runCommand(spec: CommandSpec, run: (spec: CommandSpec) => Promise<ExecuteResult>): Promise<ExecuteResult> {
    const cgroup = await this.#ensureCgroup();
    const memoryBefore = await cgroup?.memoryEvents();
    const check = await this.quota?.beginCommand();
    if (check === undefined)
      return this.#withMemoryNotice(
        await this.#run(run, cgroup === undefined ? spec : { ...spec, cgroup }, cgroup, memoryBefore),
        cgroup,
        memoryBefore,
      );

    const cap = check.fileSizeCap();
    const capped = cap !== undefined && (spec.limits.fileSizeBytes === undefined || cap < spec.limits.fileSizeBytes);
    const stop = new AbortController();
    const forwardAbort = (): void => stop.abort();
    if (spec.signal?.aborted === true) stop.abort();
    spec.signal?.addEventListener("abort", forwardAbort, { once: true });
    let stoppedAt: DiskUsage | undefined;
    const unwatch = check.watch((usage) => {
      stoppedAt = usage;
      this.#logger.info(
        { sandboxId: this.#sandboxId, bytes: usage.bytes, files: usage.files },
        "disk quota crossed: stopping the command",
      );
      stop.abort();
    });
    let result: ExecuteResult;
    try {
      const bounded = {
        ...spec,
        limits: capped ? { ...spec.limits, fileSizeBytes: cap } : spec.limits,
        signal: stop.signal,
        ...(cgroup === undefined ? {} : { cgroup }),
      };
      result = await this.#run(run, bounded, cgroup, memoryBefore);
    } catch (err) {
      // Our stop, not the caller's abort: the command ends like a timed-out one, with the notice.
      if (
        stoppedAt === undefined ||
        spec.signal?.aborted === true ||
        !(SandboxError.isInstance(err) && err.code === "ABORTED")
      )
        throw err;
      result = KILLED_RESULT;
    } finally {
      unwatch();
      spec.signal?.removeEventListener("abort", forwardAbort);
    }
    const { usage, crossed } = await check.finish();
    let notice = "";
    if (stoppedAt !== undefined)
      notice = quotaNotice(
        stoppedAt.incomplete === undefined ? "stopped" : "unmeasurable",
        usage,
        check.limits,
        withIncomplete(stoppedAt),
      );
    else if (crossed)
      notice = quotaNotice(
        usage.incomplete === undefined ? "crossed" : "unmeasurable",
        usage,
        check.limits,
        withIncomplete(usage),
      );
    else if (capped && hitFileSizeLimit(result))
      notice = quotaNotice("file-size", usage, check.limits, { leftAtStart: (cap as number) - 1 });
    const withQuota = notice === "" ? result : { ...result, stderr: result.stderr + notice };
    return this.#withMemoryNotice(withQuota, cgroup, memoryBefore);
  }

  /**
   * Runs the command. When the runner fails because the OOM killer chose one
   * of its own processes (a long-lived executor, a wrapper), the command still
   * ended for memory: it resolves as killed, and gets the memory notice.
   */
  async #run(
    run: (spec: CommandSpec) => Promise<ExecuteResult>,
    spec: CommandSpec,
    cgroup: SandboxCgroup | undefined,
    before: CgroupMemoryEvents | undefined,
  ): Promise<ExecuteResult> {
    try {
      return await run(spec);
    } catch (err) {
      if (cgroup === undefined || before === undefined || !SandboxError.isInstance(err) || err.code === "ABORTED")
        throw err;
      const after = await cgroup.memoryEvents();
      if ((after?.oomKills ?? 0) > (before.oomKills ?? 0)) return KILLED_RESULT;
      throw err;
    }
  }

  /** Appends the memory notice when the kernel OOM-killed a process of the cgroup during the command. */
  async #withMemoryNotice(
    result: ExecuteResult,
    cgroup: SandboxCgroup | undefined,
    before: CgroupMemoryEvents | undefined,
  ): Promise<ExecuteResult> {
    if (cgroup === undefined || before === undefined) return result;
    const after = await cgroup.memoryEvents();
    if (after === undefined) return result;
    let kills = (after.oomKills ?? 0) - (before.oomKills ?? 0);
    // Kernels without an oom_kill counter: the limit was hit and the command died of SIGKILL.
    if (
      after.oomKills === undefined &&
      (after.limitHits ?? 0) > (before.limitHits ?? 0) &&
      (result.signal === "SIGKILL" || result.exitCode === 137)
    )
      kills = 1;
    if (kills <= 0) return result;
    this.#logger.info(
      { sandboxId: this.#sandboxId, kills },
      "sandbox memory bound reached: the kernel killed a process",
    );
    return { ...result, stderr: result.stderr + memoryLimitNotice(cgroup.bounds.memoryBytes, kills) };
  }

  /**
   * The hooks the file writers call before writing: a write into the quota's
   * folders is charged, or refused with `QUOTA_EXCEEDED`.
   */
  readonly writeHooks: { readonly beforeWrite: (change: QuotaWriteChange) => Promise<void> } = {
    beforeWrite: async (change) => {
      if (
        this.quota === undefined ||
        !this.#quotaPaths.some((root) => isPathInside(change.virtualPath, root, { posix: true }))
      )
        return;
      await this.quota.chargeWrite(change);
    },
  };

  /**
   * The live cgroup's counters and a fresh disk measurement.
   *
   * @returns See {@link SandboxBoundsStatus}.
   */
  async status(): Promise<SandboxBoundsStatus> {
    const cgroup = await this.#cgroup?.catch(() => undefined);
    const disk =
      this.quota === undefined ? undefined : { limits: this.quota.limits, usage: await this.quota.measure() };
    return {
      cgroup:
        cgroup === undefined
          ? undefined
          : {
              version: cgroup.version,
              bounds: cgroup.bounds,
              enforced: cgroup.enforced,
              memory: await cgroup.memoryStatus(),
            },
      disk,
    };
  }

  /** Kills every process left in the sandbox's cgroup and removes it; the next command makes a new one. */
  async release(): Promise<void> {
    const current = this.#cgroup;
    this.#cgroup = undefined;
    const cgroup = await current?.catch(() => undefined);
    await cgroup?.close();
  }
}
