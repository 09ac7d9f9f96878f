/** Options of the sandbox conformance kit. */
import type { ConformanceRunner } from "@deerflow/kernel";

/** A file the test harness placed in the skills directory before the kit runs. */
export interface SkillsFixture {
  /** Virtual path of the file, e.g. `/mnt/skills/public/demo/SKILL.md`. */
  readonly path: string;
  /** Its exact content. */
  readonly content: string;
}

/** The test functions the sandbox kit takes: vitest's or jest's, or `nodeTestRunner(nodeTest)`. */
export type SandboxRunner = ConformanceRunner<"beforeAll" | "afterAll">;

/**
 * What the implementation under test claims. Checks of a capability it does
 * not claim are skipped (and shown as skipped), never weakened.
 */
export interface SandboxClaims {
  /**
   * Commands cannot see or touch anything but their mounts: `/root`, `/etc/shadow`,
   * host processes and other host directories are out of reach, `/mnt/skills` is
   * read-only for commands too, `/tmp` is private, and a child that escapes to a
   * new session still dies at the timeout. Bubblewrap and the remote service
   * running bubblewrap are isolated; host execution is not. Default false. See
   * also {@link SandboxClaims.resourceLimits}.
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
   * claim no limits (the checks are then skipped). `memoryBytes` and
   * `diskBytes` are checked with the "resource bounds" hostile cases (shared
   * memory, memfd and `/tmp` fillers; disk fillers and tool writes past the
   * quota).
   */
  readonly resourceLimits?: ClaimedLimits;
  /**
   * Bounds the implementation says it does NOT enforce, with where it says
   * so. Instead of the hostile case, the kit then checks that the named
   * document contains the stated reason verbatim, so a missing bound is
   * documented rather than silently passing. A bound can be claimed in
   * `resourceLimits` or declared here, not both.
   */
  readonly unenforcedBounds?: UnenforcedBounds;
}

/** A bound an implementation declares it does not enforce. */
export interface UnenforcedBound {
  /** Why, exactly as its documentation words it (at least 20 characters). */
  readonly reason: string;
  /** Absolute path of the document (e.g. the provider's README) that contains `reason`. */
  readonly documentedIn: string;
}

/** Bounds of the "resource bounds" checks an implementation may declare unenforced. */
export interface UnenforcedBounds {
  /** Memory of a command, shared memory, memfd and `/tmp` included. */
  readonly memory?: UnenforcedBound;
  /** The disk quota of the sandbox's folders. */
  readonly disk?: UnenforcedBound;
}

/** Limits an implementation claims to enforce on commands. */
export interface ClaimedLimits {
  /** Most processes a command (and everything it starts) may run at once. */
  readonly processes?: number;
  /** Largest file a command may write, in bytes. */
  readonly fileSizeBytes?: number;
  /**
   * Memory of all the sandbox's processes together, shared memory (`/dev/shm`),
   * memfd and `/tmp` pages included: a command crossing it is killed and its
   * stderr says memory was the reason.
   */
  readonly memoryBytes?: number;
  /**
   * Disk quota of the sandbox's folders: a file-API write that would cross it
   * is refused with `QUOTA_EXCEEDED` (earlier files kept), and a command that
   * writes past it is stopped or cut with stderr saying so.
   */
  readonly diskBytes?: number;
}

/** What an isolated sandbox is held to when it states no limits. */
export const DEFAULT_ISOLATED_LIMITS: ClaimedLimits = { processes: 1024, fileSizeBytes: 1024 ** 3 };

/** {@link SandboxClaims} with defaults applied. */
export interface ResolvedOptions {
  readonly isolated: boolean;
  readonly skillsMounted: boolean;
  readonly skillsFixture: SkillsFixture | undefined;
  readonly timeoutScale: number;
  readonly hostRoots: readonly string[];
  readonly resourceLimits: ClaimedLimits;
  readonly unenforcedBounds: UnenforcedBounds;
}

/**
 * Applies defaults and validates the options.
 *
 * @param options - What the caller passed (or nothing).
 * @returns The resolved options.
 * @throws TypeError when `timeoutScale` is not a positive number or a host root is relative.
 */
export function resolveOptions(options: SandboxClaims | undefined): ResolvedOptions {
  const timeoutScale = options?.timeoutScale ?? 1;
  if (!(timeoutScale > 0) || !Number.isFinite(timeoutScale))
    throw new TypeError(`timeoutScale must be a positive number, got ${String(timeoutScale)}`);
  const hostRoots = (options?.hostRoots ?? []).map((root) => root.replace(/\/+$/, ""));
  // A short root such as "/" or "/tmp" would match unrelated output; the kit wants the sandbox's own folder.
  for (const root of hostRoots)
    if (!root.startsWith("/") || root.split("/").length < 3)
      throw new TypeError("hostRoots must be absolute paths at least two levels deep");
  return {
    isolated: options?.isolated ?? false,
    skillsMounted: options?.skillsMounted ?? false,
    skillsFixture: options?.skillsFixture,
    timeoutScale,
    hostRoots,
    resourceLimits: validLimits(options?.resourceLimits ?? (options?.isolated === true ? DEFAULT_ISOLATED_LIMITS : {})),
    unenforcedBounds: validUnenforced(options?.unenforcedBounds ?? {}, options?.resourceLimits ?? {}),
  };
}

function validUnenforced(unenforced: UnenforcedBounds, claimed: ClaimedLimits): UnenforcedBounds {
  const claims = { memory: claimed.memoryBytes, disk: claimed.diskBytes };
  for (const [bound, declaration] of Object.entries(unenforced) as [
    keyof UnenforcedBounds,
    UnenforcedBound | undefined,
  ][]) {
    if (declaration === undefined) continue;
    if (claims[bound] !== undefined)
      throw new TypeError(`unenforcedBounds.${bound} contradicts the claimed resourceLimits for it`);
    if (typeof declaration.reason !== "string" || declaration.reason.trim().length < 20)
      throw new TypeError(`unenforcedBounds.${bound}.reason must say why, in at least 20 characters`);
    if (typeof declaration.documentedIn !== "string" || !declaration.documentedIn.startsWith("/"))
      throw new TypeError(`unenforcedBounds.${bound}.documentedIn must be an absolute path`);
  }
  return unenforced;
}

function validLimits(limits: ClaimedLimits): ClaimedLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 1))
      throw new TypeError(`resourceLimits.${name} must be a positive integer`);
  }
  return limits;
}
