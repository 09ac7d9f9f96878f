/**
 * `BubblewrapRunner`: runs commands isolated by bubblewrap.
 *
 * By default each sandbox gets one long-lived bubblewrap hosting an executor
 * (`executor/`), which runs the sandbox's commands on request, saving the
 * cost of building a sandbox per command; with `executor: false`, or when an
 * executor cannot run, each command gets a bubblewrap of its own. Both paths
 * build the same sandbox (`buildBubblewrapInvocation`).
 *
 * The command sees `/usr` (read-only), an allowlist of `/etc` files, its own
 * `/proc`, `/dev` and size-capped `/tmp`, and the sandbox's mounts at their
 * virtual paths — so no path rewriting is needed. It has no network unless the
 * spec asks for it, its own PID namespace (every process dies with the
 * command, background ones included), no host environment, and the resource
 * limits of the spec. When the server runs as root the command runs as an
 * unprivileged uid (65534 by default); see `bubblewrap-args.ts` and
 * `ownership.ts` for how mounts stay reachable and writable.
 */
import { realpathSync } from "node:fs";
import { constants } from "node:os";
import { SandboxError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import type { Mount } from "../mount.js";
import type { ExecuteResult } from "../sandbox.js";
import { buildBubblewrapInvocation, type BindSpec, type BubblewrapInvocationInput } from "./bubblewrap-args.js";
import type { CommandRunner, CommandSpec, ResourceLimits } from "./command-runner.js";
import { sandboxEnvironment } from "./environment.js";
import { toExecuteResult } from "./execute-result.js";
import { findExecutable, isRoot, SHELL_CANDIDATES } from "./executables.js";
import { ExecutorPool, type ExecutorSlot } from "./executor/executor-pool.js";
import {
  executorEnvironment,
  executorFits,
  executorProgram,
  latestExecutorBinds,
} from "./executor/executor-program.js";
import type { ExecutorOutcome } from "./executor/executor-session.js";
import {
  EXECUTOR_INFO_FD,
  EXECUTOR_SCRIPT_FD,
  EXECUTOR_SCRIPT_PATH,
  launchExecutorProcess,
} from "./executor/launch.js";
import { probeHostLayout } from "./host-layout.js";
import { filesystemRelativeAliases } from "./mount-aliases.js";
import { attachTo } from "../cgroups/attach.js";
import { adoptForSandbox, perSandboxIdentity, type SandboxIdentity } from "./ownership.js";
import { OwnershipWatch } from "./ownership-watch.js";
import { PathRewriter } from "./path-rewrite.js";
import { DEFAULT_DRAIN_GRACE_MS, runProcessTree, type ProcessTreeResult } from "./process-tree.js";
import { currentHardLimits } from "./rlimits.js";
import { SandboxInit } from "./sandbox-init.js";
import { resolveMounts, resolveWorkingDirectory, validateSpec } from "./spec-validation.js";

/** uid/gid of `nobody`, the default sandbox identity when the server is root. */
export const DEFAULT_SANDBOX_UID = 65534;

/** Size of the sandbox's private `/tmp` when the spec sets no `tmpBytes` (it lives in RAM). */
export const DEFAULT_TMP_BYTES = 512 * 1024 * 1024;

/** Virtual paths a mount may not take: the sandbox's own system directories. */
const RESERVED_PREFIXES = ["/usr", "/etc", "/proc", "/dev", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/** Environment of the wrapper processes (prlimit, setpriv, bwrap); the sandbox gets `--clearenv`. */
const WRAPPER_ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };

/** Options of {@link BubblewrapRunner}. */
export interface BubblewrapRunnerOptions {
  readonly logger?: Logger;
  /**
   * Who commands run as when the server is root. Default
   * {@link perSandboxIdentity}: one uid per sandbox, so RLIMIT_NPROC (counted
   * per uid) gives each sandbox its own process budget. A fixed identity (e.g.
   * {@link DEFAULT_SANDBOX_UID}) makes all sandboxes share one budget.
   */
  readonly identity?: SandboxIdentity | ((mounts: readonly Mount[]) => SandboxIdentity);
  /**
   * When the server is root: before each command, give root-owned entries of
   * the writable mounts to the sandbox uid so it can modify files the server
   * created. Default true.
   */
  readonly adoptWritableMounts?: boolean;
  /** `/etc`-relative names to expose instead of the built-in allowlist. */
  readonly etcAllowlist?: readonly string[];
  /** Output still collected after the command exits; default 200 ms. */
  readonly drainGraceMs?: number;
  /**
   * The long-lived executor per sandbox (default on): `false` gives every
   * command a bubblewrap of its own; an object tunes it.
   */
  readonly executor?: false | BubblewrapExecutorOptions;
}

/** Tuning of {@link BubblewrapRunner}'s executors (see the README's "The command executor"). */
export interface BubblewrapExecutorOptions {
  /** An idle executor stops after this long. Default `DEFAULT_EXECUTOR_IDLE_MS` (5 minutes). */
  readonly idleMs?: number;
  /** Executors alive at once before least recently used idle ones are stopped. Default `DEFAULT_MAX_EXECUTORS` (64). */
  readonly maxExecutors?: number;
  /** How long a new executor may take to report ready. Default `DEFAULT_EXECUTOR_START_TIMEOUT_MS` (30 s). */
  readonly startTimeoutMs?: number;
}

/** A command checked and resolved, ready for either way of running it. */
interface PreparedCommand {
  readonly tools: Tools;
  readonly identity: SandboxIdentity | undefined;
  readonly binds: readonly BindSpec[];
  /** The complete environment of the command. */
  readonly env: Record<string, string>;
  readonly limits: ResourceLimits;
}

/** Tools found on this host. */
interface Tools {
  readonly bwrap: string;
  readonly prlimit?: string;
  readonly setpriv?: string;
}

let availability: Promise<boolean> | undefined;

/** Output maskers and ownership watches kept by {@link BubblewrapRunner} (one per sandbox configuration). */
const MAX_CACHED_REWRITERS = 256;

const objectIds = new WeakMap<object, number>();
let lastObjectId = 0;

/** A number that identifies `value` for as long as it lives (for keys). */
function objectId(value: object): number {
  let id = objectIds.get(value);
  if (id === undefined) {
    id = ++lastObjectId;
    objectIds.set(value, id);
  }
  return id;
}

/**
 * Masks host paths that still show through `/proc/self/mountinfo` (bind
 * roots) and bubblewrap's own setup errors, in every spelling.
 */
function maskingRewriter(
  hostAliases: readonly { readonly virtualPath: string; readonly hostPath: string }[],
): PathRewriter {
  const aliases = hostAliases.flatMap((a) => [
    a,
    ...filesystemRelativeAliases(a.hostPath).map((hostPath) => ({ virtualPath: a.virtualPath, hostPath })),
  ]);
  return new PathRewriter(aliases.filter((a) => a.hostPath !== a.virtualPath));
}

/**
 * An executor's outcome as bubblewrap reported a command's end: a command
 * killed by a signal exits with 128 + its number (a timeout stays a SIGKILL
 * with no exit code); a command that could not start exits 127 (not found) or
 * 126, with the reason on stderr.
 */
function asBubblewrapReports(outcome: ExecutorOutcome): ProcessTreeResult {
  if (outcome.spawnError !== null) {
    outcome.stderr.write(Buffer.from(`Cannot start the command: ${outcome.spawnError}\n`));
    return { ...outcome, exitCode: outcome.spawnError === "ENOENT" ? 127 : 126, signal: null };
  }
  if (outcome.timedOut || outcome.signal === null) return outcome;
  return { ...outcome, exitCode: 128 + (constants.signals[outcome.signal] ?? 0), signal: null };
}

function findTools(): Tools | string {
  const bwrap = findExecutable("bwrap");
  if (bwrap === undefined) return "bwrap not found";
  const prlimit = findExecutable("prlimit");
  const setpriv = findExecutable("setpriv");
  if (isRoot() && setpriv === undefined) return "running as root and setpriv not found (needed to drop privileges)";
  return { bwrap, ...(prlimit === undefined ? {} : { prlimit }), ...(setpriv === undefined ? {} : { setpriv }) };
}

/**
 * Rejects identities bubblewrap cannot map or that would not drop privileges.
 * bubblewrap formats ids as signed ints, so they must stay below 2^31.
 */
function checkIdentity(identity: SandboxIdentity): SandboxIdentity {
  for (const id of [identity.uid, identity.gid]) {
    if (!Number.isInteger(id) || id <= 0 || id >= 2 ** 31 - 1) {
      throw new SandboxError("CONFIG_INVALID", "Sandbox uid/gid must be integers between 1 and 2147483646");
    }
  }
  return identity;
}

let shell: string | undefined;

/** The first shell of DeerFlow's preference that lives under `/usr` (visible in the sandbox). */
function sandboxShell(): string {
  shell ??=
    SHELL_CANDIDATES.find((candidate) => {
      try {
        return realpathSync(candidate).startsWith("/usr/") && findExecutable(candidate) !== undefined;
      } catch {
        return false; // not installed
      }
    }) ?? "/bin/sh";
  return shell;
}

/**
 * Runs commands isolated by bubblewrap.
 *
 * @example
 * ```ts
 * if (await BubblewrapRunner.isAvailable()) {
 *   const runner = new BubblewrapRunner({ logger });
 *   const r = await runner.run({ command: "ls /", cwd: "/mnt/user-data/workspace", mounts,
 *     env: commandEnvironment(runner), timeoutMs: 60_000, maxOutputBytes: 10 << 20,
 *     limits: { cpuSeconds: 60, memoryBytes: 1 << 30, processes: 256 }, network: false });
 * }
 * ```
 */
export class BubblewrapRunner implements CommandRunner {
  /** Always `"bubblewrap"`. */
  readonly kind = "bubblewrap";
  /** Always true. */
  readonly isolated = true;
  readonly #logger: Logger;
  readonly #identity: SandboxIdentity | ((mounts: readonly Mount[]) => SandboxIdentity);
  readonly #adopt: boolean;
  readonly #etcAllowlist: readonly string[] | undefined;
  readonly #drainGraceMs: number | undefined;
  readonly #executors: ExecutorPool | undefined;
  /** Output maskers by executor key (building one reads /proc/self/mountinfo). */
  readonly #rewriters = new Map<string, PathRewriter>();
  /** Ownership watches by sandbox identity and writable directories. */
  readonly #ownership = new Map<string, OwnershipWatch>();

  /** @param options - see {@link BubblewrapRunnerOptions}. */
  constructor(options: BubblewrapRunnerOptions = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.#identity = options.identity ?? perSandboxIdentity;
    this.#adopt = options.adoptWritableMounts ?? true;
    this.#etcAllowlist = options.etcAllowlist;
    this.#drainGraceMs = options.drainGraceMs;
    this.#executors =
      options.executor === false ? undefined : new ExecutorPool({ ...options.executor, logger: this.#logger });
  }

  /**
   * Tells whether bubblewrap works here, by running `true` through exactly the
   * command line real commands use (privilege drop, user namespace,
   * `--disable-userns`, tmpfs size). Checked once per process.
   *
   * @returns true when the probe exited 0.
   */
  static isAvailable(): Promise<boolean> {
    availability ??= BubblewrapRunner.#probe();
    return availability;
  }

  static async #probe(): Promise<boolean> {
    const tools = findTools();
    if (typeof tools === "string") return false;
    const input = BubblewrapRunner.#input(tools, {
      command: "true",
      cwd: "/",
      mounts: [],
      env: sandboxEnvironment({}),
      network: false,
      limits: { tmpBytes: 1 << 20 },
    });
    const dropTo = isRoot() ? { dropTo: { uid: DEFAULT_SANDBOX_UID, gid: DEFAULT_SANDBOX_UID } } : {};
    const { file, args } = buildBubblewrapInvocation({ ...input, layout: probeHostLayout(), ...dropTo });
    try {
      const r = await runProcessTree({
        file,
        args,
        cwd: "/",
        env: WRAPPER_ENV,
        timeoutMs: 10_000,
        maxOutputBytes: 4096,
      });
      return r.exitCode === 0;
    } catch {
      return false;
    }
  }

  static #input(
    tools: Tools,
    spec: Pick<BubblewrapInvocationInput, "command" | "cwd" | "mounts" | "env" | "network" | "limits">,
  ): Omit<BubblewrapInvocationInput, "layout" | "dropTo"> {
    return { ...spec, tools, shell: sandboxShell(), processLimit: true };
  }

  /**
   * The minimal sandbox environment (see `sandboxEnvironment`): nothing from
   * the host but allowlisted presentation variables.
   *
   * @returns a fresh record.
   */
  baseEnvironment(): Record<string, string> {
    return sandboxEnvironment();
  }

  /**
   * Runs one command: on the sandbox's executor (started on first use), or in
   * a bubblewrap of its own when executors are off or cannot run.
   *
   * @param spec - the command. `spec.env` is laid over the base environment
   *   (so the sandbox always has a usable `PATH` and `HOME`); `/tmp` is capped
   *   at {@link DEFAULT_TMP_BYTES} unless `limits.tmpBytes` says otherwise.
   * @returns the result; a bubblewrap setup failure shows as exit code 1 with
   *   bubblewrap's message on stderr; a command killed by a signal exits with
   *   128 + the signal's number, as bubblewrap reports it.
   * @throws SandboxError `INVALID_ARGUMENT`, `CONFIG_INVALID` (mount missing or
   *   on a system path), `PATH_NOT_ALLOWED`, `NOT_FOUND`, `ABORTED`,
   *   `UNAVAILABLE` (bwrap/setpriv missing; the executor died while the
   *   command ran, or the sandbox was released meanwhile).
   */
  async run(spec: CommandSpec): Promise<ExecuteResult> {
    const prepared = await this.#prepare(spec);
    if (this.#executors !== undefined && executorFits(prepared.limits)) {
      const slot = this.#slot(spec, prepared);
      const outcome = await this.#executors.run(slot, {
        argv: [sandboxShell(), "-c", spec.command],
        cwd: spec.cwd,
        env: prepared.env,
        timeoutMs: spec.timeoutMs,
        maxOutputBytes: spec.maxOutputBytes,
        drainGraceMs: this.#drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS,
        ...(spec.signal === undefined ? {} : { signal: spec.signal }),
      });
      if (outcome !== undefined)
        return toExecuteResult(asBubblewrapReports(outcome), this.#rewriter(slot.key, prepared.binds));
    }
    return this.#runOnce(spec, prepared);
  }

  /**
   * Stops the executor(s) of a sandbox; its next command starts a new one.
   *
   * @param sandboxId - the `sandboxId` its commands were run with.
   */
  async release(sandboxId: string): Promise<void> {
    await this.#executors?.release(sandboxId);
  }

  /** Stops every executor (commands still running on them fail with `UNAVAILABLE`). The runner stays usable. */
  async close(): Promise<void> {
    await this.#executors?.close();
    this.#rewriters.clear();
  }

  /** Checks the spec and resolves everything both ways of running it need. */
  async #prepare(spec: CommandSpec): Promise<PreparedCommand> {
    validateSpec(spec);
    if (spec.signal?.aborted) throw new SandboxError("ABORTED", "Command aborted");
    for (const m of spec.mounts) {
      if (RESERVED_PREFIXES.some((p) => m.virtualPath === p || m.virtualPath.startsWith(`${p}/`))) {
        throw new SandboxError(
          "CONFIG_INVALID",
          `Mount path is reserved for the sandbox's system directories: ${m.virtualPath}`,
          { path: m.virtualPath },
        );
      }
    }
    const mounts = await resolveMounts(spec.mounts);
    await resolveWorkingDirectory(mounts, spec.cwd, { followSymlinksOnHost: false });
    const tools = findTools();
    if (typeof tools === "string") throw new SandboxError("UNAVAILABLE", `Bubblewrap sandbox unavailable: ${tools}`);

    // Root must not run agent code: drop to the sandbox identity (RLIMIT_NPROC then applies).
    const identity = isRoot()
      ? checkIdentity(typeof this.#identity === "function" ? this.#identity(spec.mounts) : this.#identity)
      : undefined;
    // A read-only command (the sandbox's ripgrep listing) writes nothing, so it needs no ownership pass.
    const readOnly = spec.readOnly === true;
    if (identity !== undefined && this.#adopt && !readOnly) {
      await this.#ownershipWatch(
        identity,
        mounts.filter((m) => !m.readOnly).map((m) => m.realHostPath),
      ).prepare();
    }
    const binds = mounts.map((m) => ({
      virtualPath: m.virtualPath,
      hostPath: m.realHostPath,
      readOnly: m.readOnly || readOnly,
    }));
    const env = { ...sandboxEnvironment(), ...spec.env };
    const limits = spec.limits.tmpBytes === undefined ? { ...spec.limits, tmpBytes: DEFAULT_TMP_BYTES } : spec.limits;
    if (tools.prlimit === undefined && Object.keys(spec.limits).length > 0) {
      this.#logger.warn({}, "prlimit not found: sandboxed commands run without resource limits");
    }
    return { tools, identity, binds, env, limits };
  }

  /** One bubblewrap for this command only. */
  async #runOnce(spec: CommandSpec, prepared: PreparedCommand): Promise<ExecuteResult> {
    const { tools, identity, binds, env, limits } = prepared;
    const input = BubblewrapRunner.#input(tools, {
      command: spec.command,
      cwd: spec.cwd,
      mounts: binds,
      env,
      network: spec.network,
      limits,
    });
    const init = new SandboxInit();
    const invocation = buildBubblewrapInvocation({
      ...input,
      infoFd: 3,
      layout: probeHostLayout(this.#etcAllowlist),
      ...(identity === undefined ? {} : { dropTo: identity }),
    });
    const tree = await runProcessTree({
      file: invocation.file,
      args: invocation.args,
      cwd: "/",
      env: WRAPPER_ENV,
      timeoutMs: spec.timeoutMs,
      maxOutputBytes: spec.maxOutputBytes,
      onInfoPipe: (stream) => init.watch(stream),
      terminate: (leader) => init.kill(leader),
      ...(spec.cgroup === undefined ? {} : { beforeStart: attachTo(spec.cgroup) }),
      ...(spec.signal === undefined ? {} : { signal: spec.signal }),
      ...(this.#drainGraceMs === undefined ? {} : { drainGraceMs: this.#drainGraceMs }),
    });
    return toExecuteResult(tree, maskingRewriter(invocation.hostAliases));
  }

  /** The executor a command needs: one per sandbox and everything that shapes its bubblewrap. */
  #slot(spec: CommandSpec, prepared: PreparedCommand): ExecutorSlot {
    const { tools, identity, binds, limits } = prepared;
    const key = JSON.stringify([
      spec.sandboxId ?? null,
      binds,
      spec.network,
      Object.entries(limits).sort(([a], [b]) => a.localeCompare(b)),
      identity ?? null,
      spec.cgroup === undefined ? null : objectId(spec.cgroup),
    ]);
    const cpuSeconds =
      limits.cpuSeconds === undefined
        ? undefined
        : Math.min(limits.cpuSeconds, currentHardLimits().cpuSeconds ?? Number.POSITIVE_INFINITY);
    return {
      key,
      sandboxId: spec.sandboxId,
      ...(cpuSeconds === undefined || !Number.isFinite(cpuSeconds) ? {} : { cpuLimitMicros: cpuSeconds * 1e6 }),
      launch: async () => {
        const program = await executorProgram(this.#logger);
        const input = BubblewrapRunner.#input(tools, {
          command: "",
          cwd: "/",
          mounts: [...binds, ...program.binds],
          env: executorEnvironment(),
          network: spec.network,
          limits,
        });
        const invocation = buildBubblewrapInvocation({
          ...input,
          argv: program.argv,
          infoFd: EXECUTOR_INFO_FD,
          dataFiles: [{ fd: EXECUTOR_SCRIPT_FD, path: EXECUTOR_SCRIPT_PATH }],
          layout: probeHostLayout(this.#etcAllowlist),
          ...(identity === undefined ? {} : { dropTo: identity }),
        });
        return launchExecutorProcess({
          file: invocation.file,
          args: invocation.args,
          env: WRAPPER_ENV,
          ...(spec.cgroup === undefined ? {} : { cgroup: spec.cgroup }),
        });
      },
    };
  }

  /** The watch that hands root-owned entries of these directories to the sandbox identity before a command. */
  #ownershipWatch(identity: SandboxIdentity, writable: readonly string[]): OwnershipWatch {
    const key = JSON.stringify([identity.uid, identity.gid, [...writable].sort()]);
    let watch = this.#ownership.get(key);
    if (watch === undefined) {
      watch = new OwnershipWatch(writable, {
        fromUid: 0,
        adopt: (roots) => adoptForSandbox(roots, identity, { fromUid: 0, logger: this.#logger }),
      });
      if (this.#ownership.size >= MAX_CACHED_REWRITERS)
        this.#ownership.delete(this.#ownership.keys().next().value as string);
    }
    // Re-inserted: the map's order is its least-recently-used order.
    this.#ownership.delete(key);
    this.#ownership.set(key, watch);
    return watch;
  }

  /** The output masker of an executor's sandbox (its mounts, and the node binary when bound). */
  #rewriter(key: string, binds: readonly BindSpec[]): PathRewriter {
    let rewriter = this.#rewriters.get(key);
    if (rewriter === undefined) {
      rewriter = maskingRewriter([...binds, ...latestExecutorBinds()]);
      if (this.#rewriters.size >= MAX_CACHED_REWRITERS)
        this.#rewriters.delete(this.#rewriters.keys().next().value as string);
      this.#rewriters.set(key, rewriter);
    }
    return rewriter;
  }
}
