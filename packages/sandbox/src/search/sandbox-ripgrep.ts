/**
 * The {@link RipgrepSearch} of a local sandbox: ripgrep runs as a read-only
 * command through the sandbox's own runner, so under bubblewrap it sees the
 * sandbox's view only (its mounts, bound read-only), as the sandbox's uid and
 * with its resource limits.
 */
import type { CommandRunner, CommandSpec, ResourceLimits } from "../exec/command-runner.js";
import type { Logger } from "../logger.js";
import type { Mount } from "../mount.js";
import { RipgrepSearch } from "./ripgrep-search.js";

/** A listing that takes longer is abandoned for the plain search. */
const RIPGREP_TIMEOUT_MS = 60_000;

/** Largest listing kept (NUL-separated paths); a longer one is cut and therefore not used. */
const RIPGREP_OUTPUT_BYTES = 16 * 1024 * 1024;

/** Options of {@link sandboxRipgrep}. */
export interface SandboxRipgrepOptions {
  readonly runner: CommandRunner;
  readonly mounts: readonly Mount[];
  readonly limits: ResourceLimits;
  /** The environment the sandbox's commands start from (its `PATH` finds `rg`). */
  readonly environment: () => Record<string, string>;
  /** Extra spec fields the sandbox gives every command (e.g. its id). */
  readonly spec?: () => Partial<CommandSpec>;
  readonly logger?: Logger;
}

/**
 * Builds the ripgrep prefilter of one sandbox.
 *
 * @param options - The sandbox's runner, mounts, limits and environment.
 * @returns The searcher `grepMounts` takes.
 */
export function sandboxRipgrep(options: SandboxRipgrepOptions): RipgrepSearch {
  return new RipgrepSearch({
    mountPaths: options.mounts.map((mount) => mount.virtualPath),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    run: ({ command, env, cwd }) =>
      options.runner.run({
        ...options.spec?.(),
        command,
        mounts: options.mounts,
        cwd,
        env: { ...options.environment(), ...env },
        timeoutMs: RIPGREP_TIMEOUT_MS,
        maxOutputBytes: RIPGREP_OUTPUT_BYTES,
        limits: options.limits,
        network: false,
        readOnly: true,
      }),
  });
}
