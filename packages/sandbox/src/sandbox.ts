/**
 * The `Sandbox` contract: a computer of the agent's own, addressed through
 * virtual paths (`/mnt/user-data/workspace`, `/mnt/skills/...`). Every method
 * takes and returns virtual paths; implementations never expose host paths.
 * Failures throw {@link SandboxError} with a stable code.
 */

/** Options of {@link Sandbox.execute}. */
export interface ExecuteOptions {
  /** Kill the command (and every process it started) after this long. Default 600 000 ms. */
  readonly timeoutMs?: number;
  /** Extra environment variables; names must match `^[A-Za-z_][A-Za-z0-9_]*$`. */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory (virtual path). Default `/mnt/user-data/workspace`. */
  readonly cwd?: string;
  /** Aborting kills the whole process tree; the call then rejects with code `ABORTED`. */
  readonly signal?: AbortSignal;
}

/** What a command produced. */
export interface ExecuteResult {
  /** Standard output, decoded as UTF-8 (invalid bytes become U+FFFD), host paths mapped back. */
  readonly stdout: string;
  readonly stderr: string;
  /** Exit status; `null` when the process was killed by a signal. */
  readonly exitCode: number | null;
  /** The signal that ended the process, if any (`SIGKILL` after a timeout). */
  readonly signal: string | null;
  /** True when the timeout fired and the process tree was killed. */
  readonly timedOut: boolean;
  /** True when either stream exceeded its cap and the rest was discarded (a notice is appended). */
  readonly truncated: boolean;
}

/** Options of {@link Sandbox.readFile}. */
export interface ReadFileOptions {
  /** First line to return, 1-based inclusive. */
  readonly startLine?: number;
  /** Last line to return, 1-based inclusive. */
  readonly endLine?: number;
}

/** Options of {@link Sandbox.writeFile}. */
export interface WriteFileOptions {
  /** Append instead of replacing. */
  readonly append?: boolean;
}

/** Options of {@link Sandbox.glob}. */
export interface GlobOptions {
  /** Also return directories. Default false. */
  readonly includeDirs?: boolean;
  /** Default 200, capped at 1000. */
  readonly maxResults?: number;
}

/** Options of {@link Sandbox.grep}. */
export interface GrepOptions {
  /** Only search files whose path (relative to the root) matches this glob. */
  readonly glob?: string;
  /** Treat the pattern as a literal string. */
  readonly literal?: boolean;
  /** Default false (case-insensitive, as DeerFlow). */
  readonly caseSensitive?: boolean;
  /** Default 100, capped at 500. */
  readonly maxResults?: number;
}

/** One grep hit. */
export interface GrepMatch {
  /** Virtual path of the file. */
  readonly path: string;
  /** 1-based line number. */
  readonly line: number;
  /** The matched line, truncated to 200 characters. */
  readonly text: string;
}

/** A bounded list of results. */
export interface SearchResult<T> {
  readonly matches: readonly T[];
  /** True when more results existed than were returned. */
  readonly truncated: boolean;
}

/** An agent's sandbox. */
export interface Sandbox {
  /** Stable identifier (provider-specific, e.g. `local:<user>:<thread>`). */
  readonly id: string;
  /**
   * True when commands are confined to the sandbox (bubblewrap, or a remote
   * service). Tools apply host-command validation when it is not `true`.
   */
  readonly isolated?: boolean;
  /** Runs a shell command. Never rejects for a non-zero exit or a timeout: see {@link ExecuteResult}. */
  execute(command: string, options?: ExecuteOptions): Promise<ExecuteResult>;
  /** Reads a UTF-8 text file, optionally a 1-based inclusive line range (lines joined with `\n`). */
  readFile(path: string, options?: ReadFileOptions): Promise<string>;
  /** Reads a file's bytes (at most 100 MiB). */
  readBytes(path: string): Promise<Uint8Array>;
  /** Writes (or appends) UTF-8 text, creating parent directories. */
  writeFile(path: string, content: string, options?: WriteFileOptions): Promise<void>;
  /** Writes bytes, creating parent directories. */
  writeBytes(path: string, data: Uint8Array): Promise<void>;
  /** Lists a directory up to `maxDepth` levels (default 2): sorted virtual paths, directories end with `/`. */
  listDir(path: string, options?: { readonly maxDepth?: number }): Promise<readonly string[]>;
  /** Finds paths under `path` matching a glob (`**` supported). */
  glob(path: string, pattern: string, options?: GlobOptions): Promise<SearchResult<string>>;
  /** Searches file contents under `path` (or in the file `path`). */
  grep(path: string, pattern: string, options?: GrepOptions): Promise<SearchResult<GrepMatch>>;
}
