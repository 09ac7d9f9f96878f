/**
 * `LocalSandboxProvider`: one {@link LocalSandbox} per (user, thread), backed
 * by per-thread folders under a base directory, with the read-only skills
 * folder and operator-configured extra mounts. Sandboxes are cheap objects,
 * so `release` keeps them (it only ends their processes and cgroup); an LRU
 * cache bounds how many stay in memory.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { cgroupBoundsFromLimits, hasCgroupBounds } from "../cgroups/cgroup-bounds.js";
import type { CgroupController } from "../cgroups/cgroup-types.js";
import { detectCgroups, type CgroupMode } from "../cgroups/detect-cgroups.js";
import { SandboxError } from "../errors.js";
import type { CommandRunner, ResourceLimits } from "../exec/command-runner.js";
import { createDefaultRunner } from "../exec/default-runner.js";
import { DEFAULT_USER_ID, OUTPUTS_PATH, SKILLS_PATH, UPLOADS_PATH, USER_DATA_ROOT, WORKSPACE_PATH } from "../limits.js";
import type { Logger } from "../logger.js";
import { silentLogger } from "../logger.js";
import type { Mount } from "../mount.js";
import { toSandboxError } from "../paths/fs-errors.js";
import type { SandboxProvider } from "../provider.js";
import { LocalSandbox } from "./local-sandbox.js";
import { LruCache } from "@deerflow/kernel";
import { threadUserDataDir } from "./thread-layout.js";
import {
  assertDirectory,
  validateExtraMounts,
  validateSandboxIdPart,
  type ExtraMountConfig,
} from "./provider-config.js";

/** Sandboxes kept in memory by default (DeerFlow: 256). */
export const DEFAULT_MAX_CACHED_SANDBOXES = 256;

/** What a {@link RunnerFactory} gets to build the runner of one sandbox. */
export interface RunnerContext {
  readonly sandboxId: string;
  readonly userId: string;
  readonly threadId: string;
  readonly mounts: readonly Mount[];
}

/** Builds the command runner of one sandbox. */
export type RunnerFactory = (context: RunnerContext) => CommandRunner;

/** Host folders of one thread. */
export interface ThreadPaths {
  /** `{baseDir}/users/{user}/threads/{thread}/user-data`. */
  readonly userData: string;
  readonly workspace: string;
  readonly uploads: string;
  readonly outputs: string;
}

/** One folder of a user's skills view (see {@link LocalSandboxProviderBaseOptions.userSkillsMounts}). */
export interface UserSkillsMountConfig {
  /** `public`, `custom`, `legacy`...: the folder under `/mnt/skills` (`[a-z][a-z0-9_-]*`). */
  readonly category: string;
  readonly hostPath: string;
}

const SKILLS_CATEGORY = /^[a-z][a-z0-9_-]{0,63}$/;

/** Options shared by both ways of supplying a runner. */
export interface LocalSandboxProviderBaseOptions {
  /** Root of the per-thread folders (created when missing). */
  readonly baseDir: string;
  /** Existing folder mounted read-only at `/mnt/skills`. Not mounted when omitted. */
  readonly skillsDir?: string;
  /**
   * Per-user skills instead of `skillsDir` (DeerFlow's per-user view): the
   * folders of a user's sandboxes, each mounted read-only at
   * `/mnt/skills/<category>` (created when missing). Called once per new
   * sandbox with the validated user id, so one user's sandbox never sees another
   * user's custom skills.
   */
  readonly userSkillsMounts?: (userId: string) => readonly UserSkillsMountConfig[];
  /** Extra folders for every sandbox (validated when the provider is created). */
  readonly mounts?: readonly ExtraMountConfig[];
  /** Environment commands start from (scrubbed). Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  readonly limits?: ResourceLimits;
  /** Give commands network access. Default false. */
  readonly network?: boolean;
  readonly defaultTimeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** LRU capacity. Default 256. */
  readonly maxCachedSandboxes?: number;
  /**
   * cgroups for the sandboxes' `memoryBytes`, `processes` and `cpuWeight`
   * bounds: `auto` (default) detects v2, then v1, else none (RLIMITs only),
   * once per process, and logs the choice; a mode forces one; a
   * {@link CgroupController} is used as given.
   */
  readonly cgroups?: CgroupMode | CgroupController;
  /** How often a running command's folders are measured for the disk quota (`diskBytes`, `diskFiles`). Default 250 ms. */
  readonly quotaPollIntervalMs?: number;
  readonly logger?: Logger;
}

/** Options of {@link LocalSandboxProvider}: exactly one of `runner` and `runnerFactory`. */
export type LocalSandboxProviderOptions = LocalSandboxProviderBaseOptions &
  (
    | { readonly runner: CommandRunner; readonly runnerFactory?: never }
    | { readonly runnerFactory: RunnerFactory; readonly runner?: never }
  );

/**
 * Hands out per-thread local sandboxes.
 *
 * @example
 * ```ts
 * const provider = new LocalSandboxProvider({ baseDir: "/var/lib/deerflow", skillsDir: "/opt/skills", runner });
 * const sandbox = await provider.acquire("thread-1", "alice"); // id "local:alice:thread-1"
 * ```
 */
export class LocalSandboxProvider implements SandboxProvider {
  private readonly baseDir: string;
  private readonly staticMounts: readonly Mount[];
  private readonly options: LocalSandboxProviderOptions;
  private readonly logger: Logger;
  private readonly cache: LruCache<string, LocalSandbox>;
  private readonly pending = new Map<string, Promise<LocalSandbox>>();
  private readonly cgroups: CgroupController | Promise<CgroupController> | undefined;
  private closed = false;

  /**
   * @param options - Folders, mounts, runner and command defaults.
   * @throws {@link SandboxError} `CONFIG_INVALID` for a missing runner (or both),
   *   a missing skills folder, or an invalid extra mount.
   */
  constructor(options: LocalSandboxProviderOptions) {
    if ((options.runner === undefined) === (options.runnerFactory === undefined)) {
      throw new SandboxError("CONFIG_INVALID", "LocalSandboxProvider needs exactly one of runner and runnerFactory");
    }
    const capacity = options.maxCachedSandboxes ?? DEFAULT_MAX_CACHED_SANDBOXES;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new SandboxError(
        "CONFIG_INVALID",
        `maxCachedSandboxes must be a positive integer, got ${String(capacity)}`,
      );
    }
    this.options = options;
    this.baseDir = path.resolve(options.baseDir);
    const mounts: Mount[] = [];
    if (options.skillsDir !== undefined && options.userSkillsMounts !== undefined)
      throw new SandboxError("CONFIG_INVALID", "LocalSandboxProvider takes skillsDir or userSkillsMounts, not both");
    if (options.skillsDir !== undefined) {
      const skillsDir = path.resolve(options.skillsDir);
      assertDirectory(skillsDir, "Skills folder");
      mounts.push({ virtualPath: SKILLS_PATH, hostPath: skillsDir, readOnly: true });
    }
    mounts.push(...validateExtraMounts(options.mounts ?? []));
    this.staticMounts = mounts;
    this.logger = options.logger ?? silentLogger;
    this.cache = new LruCache(capacity);
    this.cgroups = cgroupsFor(options, this.logger);
  }

  /**
   * Returns the thread's sandbox, creating its folders on first use.
   * Concurrent calls for one thread share one instance.
   *
   * @param threadId - Thread id (`[A-Za-z0-9_.-]+`).
   * @param userId - User id (same rule). Default `default`.
   * @returns The sandbox, id `local:<user>:<thread>`.
   * @throws {@link SandboxError} `INVALID_ARGUMENT` for a bad id, `UNAVAILABLE` after
   *   {@link LocalSandboxProvider.shutdown}, or a filesystem error creating the folders.
   */
  async acquire(threadId: string, userId: string = DEFAULT_USER_ID): Promise<LocalSandbox> {
    this.assertOpen();
    validateSandboxIdPart("thread", threadId);
    validateSandboxIdPart("user", userId);
    const id = `local:${userId}:${threadId}`;
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    const inFlight = this.pending.get(id);
    if (inFlight !== undefined) return inFlight;
    const creating = this.create(id, userId, threadId).finally(() => this.pending.delete(id));
    this.pending.set(id, creating);
    return creating;
  }

  /**
   * A cached sandbox (marked most recently used), or `undefined`.
   *
   * @param id - `local:<user>:<thread>`.
   * @returns The sandbox, or `undefined` when unknown, evicted or shut down.
   */
  get(id: string): LocalSandbox | undefined {
    return this.closed ? undefined : this.cache.get(id);
  }

  /**
   * Kills whatever the sandbox still runs and removes its cgroup; the sandbox
   * object stays cached for the thread's next turn (a new cgroup is made by
   * its next command).
   *
   * @param id - The sandbox id.
   */
  async release(id: string): Promise<void> {
    const sandbox = this.cache.get(id);
    // The executor first, gracefully; the cgroup's kill would look like a crash.
    await sandbox?.releaseRunner();
    await sandbox?.bounds.release();
  }

  /** Releases and forgets every sandbox; `acquire` fails with `UNAVAILABLE` afterwards. Thread folders stay on disk. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const sandboxes = this.cache.values();
    this.cache.clear();
    await Promise.all(
      sandboxes.map(async (sandbox) => {
        await sandbox.releaseRunner();
        await sandbox.bounds.release();
      }),
    );
    this.pending.clear();
  }

  /**
   * Host folders of a thread (not created by this call).
   *
   * @param threadId - Thread id.
   * @param userId - User id. Default `default`.
   * @returns The folders.
   * @throws {@link SandboxError} `INVALID_ARGUMENT` for a bad id.
   */
  threadPaths(threadId: string, userId: string = DEFAULT_USER_ID): ThreadPaths {
    validateSandboxIdPart("thread", threadId);
    validateSandboxIdPart("user", userId);
    const userData = threadUserDataDir(this.baseDir, { userId, threadId });
    return {
      userData,
      workspace: path.join(userData, "workspace"),
      uploads: path.join(userData, "uploads"),
      outputs: path.join(userData, "outputs"),
    };
  }

  private async create(id: string, userId: string, threadId: string): Promise<LocalSandbox> {
    const folders = this.threadPaths(threadId, userId);
    try {
      await Promise.all(
        [folders.workspace, folders.uploads, folders.outputs].map((dir) => fs.mkdir(dir, { recursive: true })),
      );
    } catch (err) {
      // The Node error names host folders; the operator gets the code in the log, the caller a virtual path.
      this.logger.error(
        { sandboxId: id, code: (err as NodeJS.ErrnoException).code },
        "cannot create the thread folders",
      );
      throw toSandboxError(err, USER_DATA_ROOT, "directory");
    }
    const mounts: Mount[] = [
      { virtualPath: WORKSPACE_PATH, hostPath: folders.workspace, readOnly: false },
      { virtualPath: UPLOADS_PATH, hostPath: folders.uploads, readOnly: false },
      { virtualPath: OUTPUTS_PATH, hostPath: folders.outputs, readOnly: false },
      ...(await this.userSkillsMounts(id, userId)),
      ...this.staticMounts,
    ];
    const runner = this.options.runner ?? this.options.runnerFactory?.({ sandboxId: id, userId, threadId, mounts });
    if (runner === undefined) throw new SandboxError("CONFIG_INVALID", "LocalSandboxProvider has no runner");
    const o = this.options;
    const sandbox = new LocalSandbox({
      id,
      mounts,
      runner,
      logger: this.logger,
      ...(o.env === undefined ? {} : { env: o.env }),
      ...(o.limits === undefined ? {} : { limits: o.limits }),
      ...(o.network === undefined ? {} : { network: o.network }),
      ...(o.defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs: o.defaultTimeoutMs }),
      ...(o.maxOutputBytes === undefined ? {} : { maxOutputBytes: o.maxOutputBytes }),
      ...(this.cgroups === undefined ? {} : { cgroups: this.cgroups }),
      ...(o.quotaPollIntervalMs === undefined ? {} : { quotaPollIntervalMs: o.quotaPollIntervalMs }),
    });
    this.assertOpen();
    for (const [evicted, old] of this.cache.set(id, sandbox)) {
      this.logger.debug({ sandboxId: evicted }, "local sandbox evicted from the cache");
      void old
        .releaseRunner()
        .catch(() => undefined)
        .then(() => old.bounds.release());
    }
    return sandbox;
  }

  /** The user's skills folders as read-only mounts under `/mnt/skills` (none without `userSkillsMounts`). */
  private async userSkillsMounts(id: string, userId: string): Promise<Mount[]> {
    const mountsOf = this.options.userSkillsMounts;
    if (mountsOf === undefined) return [];
    const mounts: Mount[] = [];
    for (const { category, hostPath } of mountsOf(userId)) {
      if (!SKILLS_CATEGORY.test(category))
        throw new SandboxError("CONFIG_INVALID", `Invalid skills category for a mount: ${JSON.stringify(category)}`);
      const host = path.resolve(hostPath);
      try {
        await fs.mkdir(host, { recursive: true });
      } catch (err) {
        this.logger.error(
          { sandboxId: id, code: (err as NodeJS.ErrnoException).code },
          "cannot create a skills folder",
        );
        throw toSandboxError(err, `${SKILLS_PATH}/${category}`, "directory");
      }
      mounts.push({ virtualPath: `${SKILLS_PATH}/${category}`, hostPath: host, readOnly: true });
    }
    return mounts;
  }

  private assertOpen(): void {
    if (this.closed) throw new SandboxError("UNAVAILABLE", "LocalSandboxProvider has been shut down");
  }
}

/**
 * The cgroup controller of a provider: none when its limits ask for no cgroup
 * bound, else the configured one or the host's (detected once per process).
 *
 * @throws SandboxError `CONFIG_INVALID` for a bad `cpuWeight`.
 */
function cgroupsFor(
  options: LocalSandboxProviderOptions,
  logger: Logger,
): CgroupController | Promise<CgroupController> | undefined {
  let wanted: boolean;
  try {
    wanted = hasCgroupBounds(cgroupBoundsFromLimits(options.limits ?? {}));
  } catch (err) {
    throw new SandboxError("CONFIG_INVALID", (err as Error).message);
  }
  if (!wanted) return undefined;
  const cgroups = options.cgroups ?? "auto";
  return typeof cgroups === "string" ? detectCgroups({ mode: cgroups, logger }) : cgroups;
}

/** Options of {@link createLocalSandboxProvider}: a runner is optional. */
export type CreateLocalSandboxProviderOptions = LocalSandboxProviderBaseOptions & {
  readonly runner?: CommandRunner;
  readonly runnerFactory?: RunnerFactory;
  /** Without bubblewrap, run commands on the host (not a security boundary). Default false. */
  readonly allowHostBash?: boolean;
};

/**
 * Builds a {@link LocalSandboxProvider} from plain configuration: without a
 * `runner` or `runnerFactory` it picks the default runner (bubblewrap when
 * available, else the host with `allowHostBash`, else one that refuses).
 * This is the export to name in `loadSandboxProvider({ use })`.
 *
 * @example
 * ```ts
 * const provider = await loadSandboxProvider({ use: "@deerflow/sandbox:createLocalSandboxProvider", options: { baseDir: ".deer-flow" } });
 * ```
 */
export async function createLocalSandboxProvider(
  options: CreateLocalSandboxProviderOptions,
): Promise<LocalSandboxProvider> {
  const { allowHostBash, runner, runnerFactory, ...base } = options;
  if (runnerFactory !== undefined) return new LocalSandboxProvider({ ...base, runnerFactory });
  const chosen =
    runner ??
    (await createDefaultRunner({
      allowHostBash: allowHostBash === true,
      ...(base.logger ? { logger: base.logger } : {}),
    }));
  return new LocalSandboxProvider({ ...base, runner: chosen });
}
