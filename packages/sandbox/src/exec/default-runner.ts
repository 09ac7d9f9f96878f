/**
 * Picks the command runner for a local sandbox: bubblewrap when it works on
 * this host; otherwise the host shell, but only when the operator opted in
 * with `allowHostBash: true`; otherwise a runner that refuses every command
 * with DeerFlow's "host bash is disabled" message.
 */
import { SandboxError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import type { ExecuteResult } from "../sandbox.js";
import { BubblewrapRunner, type BubblewrapRunnerOptions } from "./bubblewrap-runner.js";
import type { CommandRunner, CommandSpec } from "./command-runner.js";
import { HostRunner, type HostRunnerOptions } from "./host-runner.js";

/**
 * DeerFlow's refusal, with our remedies: install bubblewrap or use the remote
 * sandbox, or opt in with `allowHostBash: true`.
 */
export const HOST_EXECUTION_DISABLED_MESSAGE =
  "Host bash execution is disabled for LocalSandboxProvider because it is not a secure sandbox boundary. " +
  "Install bubblewrap (bwrap) or switch to RemoteSandboxProvider for isolated bash access, " +
  "or set allowHostBash: true only in a fully trusted local environment.";

/** A runner that refuses every command (no isolation available, host bash not allowed). */
export class DisabledRunner implements CommandRunner {
  /** Always `"disabled"`. */
  readonly kind = "disabled";
  /** False: nothing runs, but nothing is isolated either. */
  readonly isolated = false;

  /**
   * Refuses.
   *
   * @param _spec - ignored.
   * @throws SandboxError `HOST_EXECUTION_DISABLED` with {@link HOST_EXECUTION_DISABLED_MESSAGE}.
   */
  run(_spec: CommandSpec): Promise<ExecuteResult> {
    return Promise.reject(new SandboxError("HOST_EXECUTION_DISABLED", HOST_EXECUTION_DISABLED_MESSAGE));
  }

  /** @returns an empty environment. */
  baseEnvironment(): Record<string, string> {
    return {};
  }
}

/** Options of {@link createDefaultRunner}. */
export interface DefaultRunnerOptions {
  /** Run commands on the host when bubblewrap is unavailable. Default false (DeerFlow's `allow_host_bash`). */
  readonly allowHostBash?: boolean;
  readonly logger?: Logger;
  readonly bubblewrap?: BubblewrapRunnerOptions;
  readonly host?: HostRunnerOptions;
  /** Skip the probe and assume this answer (configuration or tests). */
  readonly bubblewrapAvailable?: boolean;
}

/**
 * Chooses a runner.
 *
 * @param options - see {@link DefaultRunnerOptions}.
 * @returns a `BubblewrapRunner`, a `HostRunner`, or a {@link DisabledRunner}.
 * @example
 * ```ts
 * const runner = await createDefaultRunner({ allowHostBash: config.sandbox.allowHostBash, logger });
 * if (!runner.isolated) logger.warn({ kind: runner.kind }, "sandbox commands are not isolated");
 * ```
 */
export async function createDefaultRunner(options: DefaultRunnerOptions = {}): Promise<CommandRunner> {
  const logger = options.logger ?? silentLogger;
  const available = options.bubblewrapAvailable ?? (await BubblewrapRunner.isAvailable());
  if (available) return new BubblewrapRunner({ logger, ...options.bubblewrap });
  if (options.allowHostBash === true) {
    logger.warn({}, "bubblewrap unavailable: running sandbox commands on the host (allowHostBash)");
    return new HostRunner({ logger, ...options.host });
  }
  logger.warn({}, "bubblewrap unavailable and allowHostBash is off: bash commands are disabled");
  return new DisabledRunner();
}
