import type { CommandCgroup } from "../cgroups/cgroup-types.js";
import type { Mount } from "../mount.js";
import type { ExecuteResult } from "../sandbox.js";

/**
 * Resource limits. The RLIMITs apply to each command (and every process it
 * starts); where the host has writable cgroups, `memoryBytes`, `processes`
 * and `cpuWeight` also bound the whole sandbox through its cgroup, and
 * `diskBytes` / `diskFiles` are a per-thread quota (see the README's
 * "Resource bounds").
 */
export interface ResourceLimits {
  /** CPU seconds (RLIMIT_CPU). */
  readonly cpuSeconds?: number;
  /**
   * Data segment bytes (RLIMIT_DATA; RLIMIT_AS is avoided because it kills V8
   * below ~1 GiB), and with cgroups the memory of the whole sandbox, shared
   * memory, memfd and `/tmp` included, without swap.
   */
  readonly memoryBytes?: number;
  /** Largest file the command may write (RLIMIT_FSIZE). */
  readonly fileSizeBytes?: number;
  /** Most processes (RLIMIT_NPROC, enforced by running as a non-root uid; with cgroups also the sandbox's pids bound). */
  readonly processes?: number;
  /** Most open files (RLIMIT_NOFILE). */
  readonly openFiles?: number;
  /** Size of the private /tmp tmpfs. */
  readonly tmpBytes?: number;
  /** The sandbox's CPU share under contention, 1–10000 (cgroup `cpu.weight`; 100 is the default). cgroups only. */
  readonly cpuWeight?: number;
  /** Disk quota of the thread: bytes of all files in its workspace, uploads and outputs. */
  readonly diskBytes?: number;
  /** Disk quota of the thread: entries (files, folders, links) in its workspace, uploads and outputs. */
  readonly diskFiles?: number;
}

/** Everything a runner needs to run one command. */
export interface CommandSpec {
  /** The command as the agent wrote it, with virtual paths. */
  readonly command: string;
  /** What the command may see. */
  readonly mounts: readonly Mount[];
  /** Virtual working directory. */
  readonly cwd: string;
  /** Environment passed in (already scrubbed of secrets and merged with per-call env). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Bytes kept per stream. */
  readonly maxOutputBytes: number;
  readonly limits: ResourceLimits;
  /** Give the command network access (bubblewrap: share the host network namespace). */
  readonly network: boolean;
  /**
   * The command only reads the mounts (the sandbox's ripgrep listing): a runner
   * may bind every mount read-only and skip making files writable for it.
   */
  readonly readOnly?: boolean;
  /**
   * The sandbox the command belongs to (`LocalSandbox` sets its id). Runners
   * that keep a process per sandbox (bubblewrap's executor) key it by this id
   * and stop it on {@link CommandRunner.release}.
   */
  readonly sandboxId?: string;
  /**
   * The sandbox's cgroup: a runner that spawns processes must `attach` its
   * child before the child runs anything (see `runProcessTree`'s
   * `beforeStart`), so every process of the command inherits it.
   */
  readonly cgroup?: CommandCgroup;
}

/**
 * Runs commands for a sandbox. `BubblewrapRunner` isolates them; `HostRunner`
 * runs them on the host (only with `allowHostBash`), mapping virtual paths in
 * the command to host paths and back in the output.
 */
export interface CommandRunner {
  /** `bubblewrap`, `host`, or a plugin's name. */
  readonly kind: string;
  /** True when commands cannot see or touch anything but their mounts. */
  readonly isolated: boolean;
  /**
   * Runs one command. Resolves for any exit status, a timeout (`timedOut`) or
   * a resource limit; rejects with `SandboxError` (`ABORTED` when
   * `spec.signal` fires, `INVALID_ARGUMENT`, `NOT_FOUND`, `PATH_NOT_ALLOWED`,
   * `HOST_EXECUTION_DISABLED`, `UNAVAILABLE`...).
   */
  run(spec: CommandSpec): Promise<ExecuteResult>;
  /**
   * The environment a command of this runner starts from, before per-call
   * variables are merged on top (`commandEnvironment()` does the merge). The
   * host runner returns the scrubbed host environment; bubblewrap returns a
   * minimal environment that matches the sandbox's own filesystem. Optional so
   * that existing plugin runners stay valid; callers treat absence as `{}`.
   */
  baseEnvironment?(): Record<string, string>;
  /**
   * Frees what the runner keeps for one sandbox between commands (the
   * bubblewrap executor); its next command starts afresh. Providers call it
   * when a sandbox is released, evicted or shut down. Optional.
   */
  release?(sandboxId: string): Promise<void>;
  /** Frees everything the runner keeps between commands; it stays usable. Optional. */
  close?(): Promise<void>;
}
