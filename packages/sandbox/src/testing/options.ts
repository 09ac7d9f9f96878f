/** Options of the sandbox conformance kit. */

/** A file the test harness placed in the skills directory before the kit runs. */
export interface SkillsFixture {
  /** Virtual path of the file, e.g. `/mnt/skills/public/demo/SKILL.md`. */
  readonly path: string;
  /** Its exact content. */
  readonly content: string;
}

/**
 * What the implementation under test claims. Checks of a capability it does
 * not claim are skipped (and shown as skipped), never weakened.
 */
export interface SandboxConformanceOptions {
  /**
   * Commands cannot see or touch anything but their mounts: `/root`, `/etc/shadow`,
   * host processes and other host directories are out of reach, `/mnt/skills` is
   * read-only for commands too, `/tmp` is private, and a child that escapes to a
   * new session still dies at the timeout. Bubblewrap and the remote service
   * running bubblewrap are isolated; host execution is not. Default false. See
   * also {@link SandboxConformanceOptions.resourceLimits}.
   */
  readonly isolated?: boolean;
  /** `/mnt/skills` is mounted (read-only). Default false. */
  readonly skillsMounted?: boolean;
  /** A known file under `/mnt/skills`, read back through the file API and commands. */
  readonly skillsFixture?: SkillsFixture;
  /**
   * Multiplies every per-test timeout and the command timeouts the kit waits
   * for (a remote sandbox on a slow machine wants 2 or 3). Default 1.
   */
  readonly timeoutScale?: number;
  /**
   * Host directories behind the sandbox (its base directory, the thread's
   * folder). When given, every result and every error message is checked not
   * to contain them; the check never prints them.
   */
  readonly hostRoots?: readonly string[];
  /**
   * Resource limits every command runs under. The kit checks each one given:
   * `processes` with a bounded spawn probe and then a fork bomb (isolated
   * sandboxes only: a host sandbox cannot contain one), `fileSizeBytes` with a
   * disk filler. Default for an isolated sandbox: at most 1024 processes and
   * 1 GiB files (pass the real, tighter values); otherwise none. Pass `{}` to
   * claim no limits (the checks are then skipped).
   */
  readonly resourceLimits?: ClaimedLimits;
}

/** Limits an implementation claims to enforce on commands. */
export interface ClaimedLimits {
  /** Most processes a command (and everything it starts) may run at once. */
  readonly processes?: number;
  /** Largest file a command may write, in bytes. */
  readonly fileSizeBytes?: number;
}

/** What an isolated sandbox is held to when it states no limits. */
export const DEFAULT_ISOLATED_LIMITS: ClaimedLimits = { processes: 1024, fileSizeBytes: 1024 ** 3 };

/** {@link SandboxConformanceOptions} with defaults applied. */
export interface ResolvedOptions {
  readonly isolated: boolean;
  readonly skillsMounted: boolean;
  readonly skillsFixture: SkillsFixture | undefined;
  readonly timeoutScale: number;
  readonly hostRoots: readonly string[];
  readonly resourceLimits: ClaimedLimits;
}

/**
 * Applies defaults and validates the options.
 *
 * @param options - What the caller passed (or nothing).
 * @returns The resolved options.
 * @throws TypeError when `timeoutScale` is not a positive number or a host root is relative.
 */
export function resolveOptions(options: SandboxConformanceOptions | undefined): ResolvedOptions {
  const timeoutScale = options?.timeoutScale ?? 1;
  if (!(timeoutScale > 0) || !Number.isFinite(timeoutScale)) throw new TypeError(`timeoutScale must be a positive number, got ${String(timeoutScale)}`);
  const hostRoots = (options?.hostRoots ?? []).map((root) => root.replace(/\/+$/, ""));
  // A short root such as "/" or "/tmp" would match unrelated output; the kit wants the sandbox's own folder.
  for (const root of hostRoots) if (!root.startsWith("/") || root.split("/").length < 3) throw new TypeError("hostRoots must be absolute paths at least two levels deep");
  return {
    isolated: options?.isolated ?? false,
    skillsMounted: options?.skillsMounted ?? false,
    skillsFixture: options?.skillsFixture,
    timeoutScale,
    hostRoots,
    resourceLimits: validLimits(options?.resourceLimits ?? (options?.isolated === true ? DEFAULT_ISOLATED_LIMITS : {})),
  };
}

function validLimits(limits: ClaimedLimits): ClaimedLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 1)) throw new TypeError(`resourceLimits.${name} must be a positive integer`);
  }
  return limits;
}
