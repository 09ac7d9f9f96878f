/**
 * `LocalSandbox`: the {@link Sandbox} of one thread on this machine. Files are
 * reached through mounts (virtual path → host folder) with traversal, symlink
 * and read-only checks; commands are handed to a {@link CommandRunner}
 * (bubblewrap, or the host when allowed), which this class never bypasses.
 */
import { SandboxBounds } from "../bounds/sandbox-bounds.js";
import type { CgroupController } from "../cgroups/cgroup-types.js";
import { SandboxError } from "../errors.js";
import { scrubEnvironment, validateEnvironment } from "../exec/environment.js";
import type { CommandRunner, CommandSpec, ResourceLimits } from "../exec/command-runner.js";
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_LIST_DEPTH,
  MAX_STREAM_OUTPUT_BYTES,
  USER_DATA_ROOT,
  WORKSPACE_PATH,
} from "../limits.js";
import type { Logger } from "../logger.js";
import { silentLogger } from "../logger.js";
import type { Mount } from "../mount.js";
import { usingDir } from "../paths/dir-handle.js";
import { MountResolver } from "../paths/mount-resolver.js";
import { openDirectory } from "../paths/safe-open.js";
import { isPathInside } from "@deerflow/kernel";
import { normalizeVirtualPath } from "../paths/virtual-paths.js";
import type {
  ExecuteOptions,
  ExecuteResult,
  GlobOptions,
  GrepMatch,
  GrepOptions,
  ReadFileOptions,
  Sandbox,
  SearchResult,
  WriteFileOptions,
} from "../sandbox.js";
import { readFileBytes, readTextFile, validateLineRange } from "./file-reader.js";
import { appendToFile, writeFileAtomic, type WriteHooks } from "./file-writer.js";
import { listVirtualDir } from "./list-dir.js";
import { globMounts, grepMounts } from "./mount-search.js";
import type { RipgrepSearch } from "../search/ripgrep-search.js";
import { sandboxRipgrep } from "../search/sandbox-ripgrep.js";

/** Options of {@link LocalSandbox}. */
export interface LocalSandboxOptions {
  /** Sandbox id, e.g. `local:<user>:<thread>`. */
  readonly id: string;
  /** What the sandbox sees; virtual paths absolute and distinct, host paths absolute. */
  readonly mounts: readonly Mount[];
  /** Runs `execute` commands. */
  readonly runner: CommandRunner;
  /**
   * Environment commands start from, scrubbed of secrets before every command.
   * Default: the runner's own `baseEnvironment()` (bubblewrap: a minimal
   * sandbox environment), else the scrubbed `process.env`.
   */
  readonly env?: NodeJS.ProcessEnv;
  /** Resource limits of every command. Default none. */
  readonly limits?: ResourceLimits;
  /** Give commands network access. Default false. */
  readonly network?: boolean;
  /** Timeout when `execute` gets none. Default 600 000 ms. */
  readonly defaultTimeoutMs?: number;
  /** Bytes kept per output stream. Default 10 MiB. */
  readonly maxOutputBytes?: number;
  readonly logger?: Logger;
  /**
   * Makes the sandbox's cgroup (memory, pids and CPU bounds of `limits` for
   * the whole sandbox). Default none: only RLIMITs. `LocalSandboxProvider`
   * passes the host's detected controller.
   */
  readonly cgroups?: CgroupController | Promise<CgroupController>;
  /** How often a running command's folders are measured for the disk quota. Default 250 ms. */
  readonly quotaPollIntervalMs?: number;
  /**
   * `grep` first lists the files that can match with ripgrep (`rg`), run as a
   * read-only command of this sandbox, then searches only those; results are
   * the same. Without `rg` in the sandbox, or for a pattern without a literal
   * to look for, every file is searched. Default true.
   */
  readonly ripgrep?: boolean;
}

/**
 * A sandbox whose files live in host folders and whose commands run through
 * a {@link CommandRunner}.
 *
 * @example
 * ```ts
 * const sandbox = new LocalSandbox({
 *   id: "local:default:t1",
 *   mounts: [{ virtualPath: "/mnt/user-data/workspace", hostPath: "/srv/t1/workspace", readOnly: false }],
 *   runner,
 * });
 * await sandbox.writeFile("/mnt/user-data/workspace/a.txt", "hi");
 * ```
 */
export class LocalSandbox implements Sandbox {
  readonly id: string;
  /** Whether commands are confined: true with bubblewrap, false on the host. */
  readonly isolated: boolean;
  /** The mounts, as given. */
  readonly mounts: readonly Mount[];
  private readonly resolver: MountResolver;
  private readonly runner: CommandRunner;
  private readonly baseEnv: NodeJS.ProcessEnv | undefined;
  private readonly limits: ResourceLimits;
  private readonly network: boolean;
  private readonly defaultTimeoutMs: number;
  private readonly maxOutputBytes: number;
  private readonly logger: Logger;
  /** Checks every file-API write runs before writing: the thread's disk quota. */
  private readonly writeHooks: WriteHooks;
  /** The sandbox's cgroup and its thread's disk quota; `bounds.release()` removes the cgroup. */
  readonly bounds: SandboxBounds;
  /** grep's prefilter, unless disabled. */
  private readonly ripgrep: RipgrepSearch | undefined;

  /**
   * @param options - Id, mounts, runner and command defaults.
   * @throws {@link SandboxError} `CONFIG_INVALID` for a malformed or duplicate mount.
   */
  constructor(options: LocalSandboxOptions) {
    validateMounts(options.mounts);
    this.isolated = options.runner.isolated;
    this.id = options.id;
    this.mounts = [...options.mounts];
    this.resolver = new MountResolver(this.mounts);
    this.runner = options.runner;
    this.baseEnv = options.env;
    this.limits = options.limits ?? {};
    this.network = options.network ?? false;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.maxOutputBytes = options.maxOutputBytes ?? MAX_STREAM_OUTPUT_BYTES;
    this.logger = options.logger ?? silentLogger;
    this.bounds = new SandboxBounds({
      sandboxId: this.id,
      limits: this.limits,
      // The thread's own writable folders; operator mounts are not the thread's to fill.
      quotaMounts: this.mounts.filter(
        (m) => !m.readOnly && isPathInside(m.virtualPath, USER_DATA_ROOT, { posix: true }),
      ),
      logger: this.logger,
      ...(options.cgroups === undefined ? {} : { cgroups: options.cgroups }),
      ...(options.quotaPollIntervalMs === undefined ? {} : { quotaPollIntervalMs: options.quotaPollIntervalMs }),
    });
    this.writeHooks = this.bounds.writeHooks;
    this.ripgrep =
      options.ripgrep === false
        ? undefined
        : sandboxRipgrep({
            runner: this.runner,
            mounts: this.mounts,
            limits: this.limits,
            environment: () => this.baseEnvironment(),
            spec: () => ({ sandboxId: this.id }),
            logger: this.logger,
          });
  }

  /** {@inheritDoc Sandbox.execute} */
  async execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    throwIfAborted(options.signal);
    const extraEnv = options.env ?? {};
    validateEnvironment(extraEnv);
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new SandboxError("INVALID_ARGUMENT", `timeoutMs must be a positive number, got ${String(timeoutMs)}`);
    }
    const cwd = await this.resolver.withEntry(
      options.cwd ?? WORKSPACE_PATH,
      "read",
      async (entry) => usingDir(openDirectory(entry), async () => entry.virtualPath),
      { target: "directory" },
    );
    const spec: CommandSpec = {
      command,
      mounts: this.mounts,
      cwd,
      env: { ...this.baseEnvironment(), ...extraEnv },
      timeoutMs,
      maxOutputBytes: this.maxOutputBytes,
      limits: this.limits,
      network: this.network,
      sandboxId: this.id,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    throwIfAborted(options.signal);
    return this.bounds.runCommand(spec, (bounded) => this.runner.run(bounded));
  }

  /**
   * Stops what the runner keeps alive for this sandbox between commands (the
   * bubblewrap executor); the next command starts it again. Providers call it
   * on release, eviction and shutdown.
   */
  async releaseRunner(): Promise<void> {
    await this.runner.release?.(this.id);
  }

  /** {@inheritDoc Sandbox.readFile} */
  async readFile(path: string, options: ReadFileOptions = {}): Promise<string> {
    validateLineRange(options);
    return readTextFile(this.resolver, path, options);
  }

  /** {@inheritDoc Sandbox.readBytes} */
  async readBytes(path: string): Promise<Uint8Array> {
    return readFileBytes(this.resolver, path);
  }

  /** {@inheritDoc Sandbox.writeFile} */
  async writeFile(path: string, content: string, options: WriteFileOptions = {}): Promise<void> {
    if (options.append === true) await appendToFile(this.resolver, path, content, this.writeHooks);
    else await writeFileAtomic(this.resolver, path, content, this.writeHooks);
  }

  /** {@inheritDoc Sandbox.writeBytes} */
  async writeBytes(path: string, data: Uint8Array): Promise<void> {
    await writeFileAtomic(this.resolver, path, data, this.writeHooks);
  }

  /** {@inheritDoc Sandbox.listDir} */
  async listDir(path: string, options: { readonly maxDepth?: number } = {}): Promise<readonly string[]> {
    return listVirtualDir(this.resolver, path, options.maxDepth ?? DEFAULT_LIST_DEPTH, this.logger);
  }

  /** {@inheritDoc Sandbox.glob} */
  async glob(path: string, pattern: string, options: GlobOptions = {}): Promise<SearchResult<string>> {
    return globMounts(this.resolver, path, pattern, options, this.logger);
  }

  /** {@inheritDoc Sandbox.grep} */
  async grep(path: string, pattern: string, options: GrepOptions = {}): Promise<SearchResult<GrepMatch>> {
    return grepMounts(this.resolver, path, pattern, options, this.logger, this.ripgrep);
  }

  /** The environment a command starts from, before per-call variables. */
  private baseEnvironment(): Record<string, string> {
    if (this.baseEnv !== undefined) return scrubEnvironment(this.baseEnv);
    return this.runner.baseEnvironment?.() ?? scrubEnvironment(process.env);
  }

  /**
   * Maps a host path back to its virtual path (for rewriting command output).
   *
   * @param hostPath - An absolute host path.
   * @returns The virtual path, or `undefined` outside every mount.
   */
  toVirtualPath(hostPath: string): string | undefined {
    return this.resolver.toVirtual(hostPath);
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new SandboxError("ABORTED", "Command aborted before it started");
}

/** Mount sanity: absolute, normalised, distinct virtual paths; absolute host paths. */
function validateMounts(mounts: readonly Mount[]): void {
  const seen = new Set<string>();
  for (const mount of mounts) {
    let normalized: string;
    try {
      normalized = normalizeVirtualPath(mount.virtualPath);
    } catch {
      throw new SandboxError(
        "CONFIG_INVALID",
        `Mount virtual path must be absolute and free of '..': ${mount.virtualPath}`,
      );
    }
    if (normalized !== mount.virtualPath) {
      throw new SandboxError(
        "CONFIG_INVALID",
        `Mount virtual path must be normalised (no trailing slash): ${mount.virtualPath}`,
      );
    }
    if (!mount.hostPath.startsWith("/")) {
      throw new SandboxError("CONFIG_INVALID", `Mount host path must be absolute (mount ${mount.virtualPath})`);
    }
    if (seen.has(normalized)) throw new SandboxError("CONFIG_INVALID", `Duplicate mount virtual path: ${normalized}`);
    seen.add(normalized);
  }
}
