/**
 * The storage behind the thread files routes: a thread's user data
 * (`/mnt/user-data/{workspace,uploads,outputs}`) as the agent's sandbox sees it.
 */
import type { Readable } from "node:stream";
import type { UserDataArea, UserDataPath } from "./virtual-path.js";

/** Whose thread: the storage owner and the thread id (both already validated by the routes). */
export interface ThreadScope {
  readonly userId: string;
  readonly threadId: string;
}

/** A file as listed to clients (snake_case-free: these names are DeerFlow's). */
export interface ThreadFileInfo {
  /** Path relative to its folder, POSIX separators (`report.md`, `charts/q1.png`). */
  readonly filename: string;
  /** Size in bytes. */
  readonly size: number;
  /** Virtual path, e.g. `/mnt/user-data/outputs/report.md`. */
  readonly path: string;
  /** Last modification, seconds since the epoch (like Python's `st_mtime`). */
  readonly modified: number;
}

/** Bytes `start` to `end` of a file, both inclusive (an HTTP byte range). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * An opened file, ready to stream. The caller either reads it (once) or
 * closes it; the stream releases the file when it ends or is destroyed.
 */
export interface OpenedThreadFile {
  readonly size: number;
  readonly modified: Date;
  /** Base name, for `Content-Type` and `Content-Disposition`. */
  readonly name: string;
  /**
   * @param range - the bytes to read (within `size`); the whole file when omitted.
   * @returns the content; the caller must consume or destroy it.
   */
  read(range?: ByteRange): Readable;
  /** Releases the file, destroying a stream `read` returned. Idempotent. */
  close(): Promise<void>;
}

/**
 * Files of one upload request, staged so that either all of them appear or
 * none does.
 */
export interface UploadBatch {
  /**
   * Streams one file into a private staging area (nothing is visible yet).
   *
   * @param filename - a safe base name (see `uploadFilename`), distinct from every other name of the batch
   *   (the routes rename repeats first, see `claimUniqueName`); a repeat is a programming error and throws.
   * @param data - the content (a stream or any async iterable of bytes); an error from it fails the call.
   * @returns the bytes written.
   */
  add(filename: string, data: AsyncIterable<Uint8Array>): Promise<number>;
  /**
   * Makes every staged file visible, replacing a regular file of the same name
   * from an earlier upload (DeerFlow does the same); a folder is never replaced.
   * @returns the stored files, in the order they were added.
   */
  commit(): Promise<ThreadFileInfo[]>;
  /** Removes everything staged. Safe to call more than once, and after `commit`. */
  abort(): Promise<void>;
}

/**
 * A thread's user data. Implementations must keep every access inside the
 * thread's folders, symlinks included, and throw `GatewayError`s:
 * `FILE_NOT_FOUND` (404), `NOT_A_FILE` (400), `PATH_TRAVERSAL` (403).
 */
export interface ThreadFiles {
  /**
   * @param scope - the thread.
   * @param area - the folder.
   * @param options - `recursive`: include files in subfolders (as `dir/name`).
   * @returns regular files sorted by `filename`; hidden files and symlinks are left out; `[]` when the folder does not exist.
   */
  list(scope: ThreadScope, area: UserDataArea, options?: { readonly recursive?: boolean }): Promise<ThreadFileInfo[]>;
  /**
   * @param scope - the thread.
   * @param path - a parsed virtual path (see `parseUserDataPath`).
   * @returns the opened regular file.
   */
  open(scope: ThreadScope, path: UserDataPath): Promise<OpenedThreadFile>;
  /** @param scope - the thread. @returns a batch writing into `/mnt/user-data/uploads`. */
  beginUpload(scope: ThreadScope): Promise<UploadBatch>;
  /** @param scope - the thread. @param filename - a safe base name in `/mnt/user-data/uploads`. */
  deleteUpload(scope: ThreadScope, filename: string): Promise<void>;
}
