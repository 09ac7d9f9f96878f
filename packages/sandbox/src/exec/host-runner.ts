/**
 * `HostRunner`: runs commands directly on the host, as DeerFlow's
 * LocalSandbox does. It is **not** a security boundary — the command sees the
 * whole host filesystem and network — and is used only with `allowHostBash`.
 *
 * Virtual paths in the command are rewritten to host paths, the working
 * directory is mapped to the host, host paths in the output are mapped back,
 * and the command runs in its own process group so a timeout or abort kills
 * everything it started (except processes that left the group with `setsid`).
 * Resource limits go through `prlimit` when it is installed.
 */
import { attachTo } from "../cgroups/attach.js";
import { SandboxError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import type { ExecuteResult } from "../sandbox.js";
import type { CommandRunner, CommandSpec } from "./command-runner.js";
import { scrubEnvironment } from "./environment.js";
import { toExecuteResult } from "./execute-result.js";
import { findExecutable, findShell, isRoot } from "./executables.js";
import { PathRewriter } from "./path-rewrite.js";
import { runProcessTree } from "./process-tree.js";
import { prlimitArgs } from "./rlimits.js";
import { mountMappings, resolveMounts, resolveWorkingDirectory, validateSpec } from "./spec-validation.js";

/** DeerFlow's error when no shell exists. */
const NO_SHELL_MESSAGE = "No suitable shell executable found. Tried /bin/zsh, /bin/bash, /bin/sh, and `sh` on PATH.";

/** Options of {@link HostRunner}. */
export interface HostRunnerOptions {
  readonly logger?: Logger;
  /** Shell to use instead of DeerFlow's preference (`/bin/zsh` → `/bin/bash` → `/bin/sh` → `sh`). */
  readonly shell?: string;
  /** Output still collected after the command exits; default 200 ms. */
  readonly drainGraceMs?: number;
}

/**
 * Runs commands on the host with virtual-path translation.
 *
 * @example
 * ```ts
 * const runner = new HostRunner();
 * const result = await runner.run({
 *   command: "ls /mnt/user-data/workspace", cwd: "/mnt/user-data/workspace",
 *   mounts: [{ virtualPath: "/mnt/user-data/workspace", hostPath: "/srv/t1/ws", readOnly: false }],
 *   env: commandEnvironment(runner), timeoutMs: 600_000, maxOutputBytes: 10 << 20, limits: {}, network: true,
 * });
 * ```
 */
export class HostRunner implements CommandRunner {
  /** Always `"host"`. */
  readonly kind = "host";
  /** Always false: host commands can reach everything the server can. */
  readonly isolated = false;
  readonly #logger: Logger;
  readonly #shell: string | undefined;
  readonly #drainGraceMs: number | undefined;
  #warnedNoPrlimit = false;

  /** @param options - see {@link HostRunnerOptions}. */
  constructor(options: HostRunnerOptions = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.#shell = options.shell;
    this.#drainGraceMs = options.drainGraceMs;
  }

  /**
   * The server's environment without secrets (see `scrubEnvironment`).
   *
   * @returns a fresh record.
   */
  baseEnvironment(): Record<string, string> {
    return scrubEnvironment(process.env);
  }

  /**
   * Runs one command.
   *
   * @param spec - the command; `network` is ignored (the host network is always reachable).
   * @returns the result, with host paths mapped back to virtual paths.
   * @throws SandboxError `INVALID_ARGUMENT`, `PATH_NOT_ALLOWED`, `NOT_FOUND`,
   *   `PATH_ESCAPE`, `CONFIG_INVALID`, `ABORTED`, `UNAVAILABLE` (no shell).
   */
  async run(spec: CommandSpec): Promise<ExecuteResult> {
    validateSpec(spec);
    if (spec.signal?.aborted) throw new SandboxError("ABORTED", "Command aborted");
    const mounts = await resolveMounts(spec.mounts);
    const rewriter = new PathRewriter(mountMappings(mounts));
    const cwd = await resolveWorkingDirectory(mounts, spec.cwd, { followSymlinksOnHost: true });
    const shell = this.#shell ?? findShell();
    if (shell === undefined) throw new SandboxError("UNAVAILABLE", NO_SHELL_MESSAGE);

    const shellArgs = [shell, "-c", rewriter.toHostCommand(spec.command)];
    const argv = this.#withLimits(spec, shellArgs);
    try {
      const tree = await runProcessTree({
        file: argv[0] as string,
        args: argv.slice(1),
        cwd,
        env: spec.env,
        timeoutMs: spec.timeoutMs,
        maxOutputBytes: spec.maxOutputBytes,
        ...(spec.cgroup === undefined ? {} : { beforeStart: attachTo(spec.cgroup) }),
        ...(spec.signal === undefined ? {} : { signal: spec.signal }),
        ...(this.#drainGraceMs === undefined ? {} : { drainGraceMs: this.#drainGraceMs }),
      });
      return toExecuteResult(tree, rewriter);
    } catch (err) {
      if (SandboxError.isInstance(err)) throw err;
      const code = (err as NodeJS.ErrnoException).code ?? "unknown error";
      throw new SandboxError("UNAVAILABLE", `Could not start the command (${code})`);
    }
  }

  /** Prefixes `prlimit` when limits are requested and the tool exists. */
  #withLimits(spec: CommandSpec, argv: string[]): string[] {
    // RLIMIT_NPROC is ignored for root; for other users it counts every
    // process of the user, the server's threads included.
    const limitArgs = prlimitArgs(spec.limits, { processes: !isRoot() });
    if (limitArgs.length === 0) return argv;
    const prlimit = findExecutable("prlimit");
    if (prlimit === undefined) {
      if (!this.#warnedNoPrlimit)
        this.#logger.warn({ limits: spec.limits }, "prlimit not found: host commands run without resource limits");
      this.#warnedNoPrlimit = true;
      return argv;
    }
    return [prlimit, ...limitArgs, "--", ...argv];
  }
}
