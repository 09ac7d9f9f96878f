/**
 * `BubblewrapRunner`: runs each command in a fresh bubblewrap sandbox.
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
import { SandboxError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import type { Mount } from "../mount.js";
import type { ExecuteResult } from "../sandbox.js";
import { buildBubblewrapInvocation, type BubblewrapInvocationInput } from "./bubblewrap-args.js";
import type { CommandRunner, CommandSpec } from "./command-runner.js";
import { sandboxEnvironment } from "./environment.js";
import { toExecuteResult } from "./execute-result.js";
import { findExecutable, isRoot, SHELL_CANDIDATES } from "./executables.js";
import { probeHostLayout } from "./host-layout.js";
import { filesystemRelativeAliases } from "./mount-aliases.js";
import { attachTo } from "../cgroups/attach.js";
import { adoptForSandbox, perSandboxIdentity, type SandboxIdentity } from "./ownership.js";
import { PathRewriter } from "./path-rewrite.js";
import { runProcessTree } from "./process-tree.js";
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
}

/** Tools found on this host. */
interface Tools {
  readonly bwrap: string;
  readonly prlimit?: string;
  readonly setpriv?: string;
}

let availability: Promise<boolean> | undefined;

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

  /** @param options - see {@link BubblewrapRunnerOptions}. */
  constructor(options: BubblewrapRunnerOptions = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.#identity = options.identity ?? perSandboxIdentity;
    this.#adopt = options.adoptWritableMounts ?? true;
    this.#etcAllowlist = options.etcAllowlist;
    this.#drainGraceMs = options.drainGraceMs;
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
    const input = BubblewrapRunner.#input(tools, { command: "true", cwd: "/", mounts: [], env: sandboxEnvironment({}), network: false, limits: { tmpBytes: 1 << 20 } });
    const dropTo = isRoot() ? { dropTo: { uid: DEFAULT_SANDBOX_UID, gid: DEFAULT_SANDBOX_UID } } : {};
    const { file, args } = buildBubblewrapInvocation({ ...input, layout: probeHostLayout(), ...dropTo });
    try {
      const r = await runProcessTree({ file, args, cwd: "/", env: WRAPPER_ENV, timeoutMs: 10_000, maxOutputBytes: 4096 });
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
   * Runs one command in a new sandbox.
   *
   * @param spec - the command. `spec.env` is laid over the base environment
   *   (so the sandbox always has a usable `PATH` and `HOME`); `/tmp` is capped
   *   at {@link DEFAULT_TMP_BYTES} unless `limits.tmpBytes` says otherwise.
   * @returns the result; a bubblewrap setup failure shows as exit code 1 with
   *   bubblewrap's message on stderr.
   * @throws SandboxError `INVALID_ARGUMENT`, `CONFIG_INVALID` (mount missing or
   *   on a system path), `PATH_NOT_ALLOWED`, `NOT_FOUND`, `ABORTED`,
   *   `UNAVAILABLE` (bwrap/setpriv missing).
   */
  async run(spec: CommandSpec): Promise<ExecuteResult> {
    validateSpec(spec);
    if (spec.signal?.aborted) throw new SandboxError("ABORTED", "Command aborted");
    for (const m of spec.mounts) {
      if (RESERVED_PREFIXES.some((p) => m.virtualPath === p || m.virtualPath.startsWith(`${p}/`))) {
        throw new SandboxError("CONFIG_INVALID", `Mount path is reserved for the sandbox's system directories: ${m.virtualPath}`, { path: m.virtualPath });
      }
    }
    const mounts = await resolveMounts(spec.mounts);
    await resolveWorkingDirectory(mounts, spec.cwd, { followSymlinksOnHost: false });
    const tools = findTools();
    if (typeof tools === "string") throw new SandboxError("UNAVAILABLE", `Bubblewrap sandbox unavailable: ${tools}`);

    // Root must not run agent code: drop to the sandbox identity (RLIMIT_NPROC then applies).
    const identity = isRoot() ? checkIdentity(typeof this.#identity === "function" ? this.#identity(spec.mounts) : this.#identity) : undefined;
    if (identity !== undefined && this.#adopt) {
      const writable = mounts.filter((m) => !m.readOnly).map((m) => m.realHostPath);
      await adoptForSandbox(writable, identity, { fromUid: 0, logger: this.#logger });
    }
    const binds = mounts.map((m) => ({ virtualPath: m.virtualPath, hostPath: m.realHostPath, readOnly: m.readOnly }));
    const env = { ...sandboxEnvironment(), ...spec.env };
    const limits = spec.limits.tmpBytes === undefined ? { ...spec.limits, tmpBytes: DEFAULT_TMP_BYTES } : spec.limits;
    const input = BubblewrapRunner.#input(tools, { command: spec.command, cwd: spec.cwd, mounts: binds, env, network: spec.network, limits });
    const init = new SandboxInit();
    const invocation = buildBubblewrapInvocation({
      ...input,
      infoFd: 3,
      layout: probeHostLayout(this.#etcAllowlist),
      ...(identity === undefined ? {} : { dropTo: identity }),
    });
    if (tools.prlimit === undefined && Object.keys(spec.limits).length > 0) {
      this.#logger.warn({}, "prlimit not found: sandboxed commands run without resource limits");
    }
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
    // Host paths still show through /proc/self/mountinfo (bind roots) and
    // bubblewrap's own setup errors: mask them, in every spelling.
    const aliases = invocation.hostAliases.flatMap((a) => [a, ...filesystemRelativeAliases(a.hostPath).map((hostPath) => ({ virtualPath: a.virtualPath, hostPath }))]);
    return toExecuteResult(tree, new PathRewriter(aliases.filter((a) => a.hostPath !== a.virtualPath)));
  }
}
