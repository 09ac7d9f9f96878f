/**
 * Directories held open, and every file operation done relative to one of
 * them: the `openat()` family that Node lacks, through Linux procfs. A path
 * `/proc/self/fd/<fd>/<name>` is resolved from the directory object the
 * descriptor refers to, wherever that directory has been moved and whatever
 * now sits at its old path; the kernel never re-walks a path string. With
 * `O_NOFOLLOW` on every component, an operation below a held directory can
 * only reach that directory's own entries: a sandbox that swaps a folder of
 * its tree for a symlink while the server works there redirects nothing.
 *
 * Linux only (procfs). {@link DirHandle.open} fails with `UNAVAILABLE`
 * elsewhere.
 */
import { constants, type Dirent, type Stats } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import { SandboxError } from "../errors.js";

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const FD_ROOT = "/proc/self/fd";

/** Mode of new directories before the umask, as `fs.mkdir`. */
const NEW_DIR_MODE = 0o777;

let procChecked: Promise<void> | undefined;

/** Fails once, clearly, where `/proc/self/fd` does not resolve descriptors (not Linux, or no procfs). */
function requireProcFd(): Promise<void> {
  procChecked ??= fs
    .stat(FD_ROOT)
    .then(
      (stats) => stats.isDirectory(),
      () => false,
    )
    .then((usable) => {
      if (usable) return;
      procChecked = undefined;
      throw new SandboxError(
        "UNAVAILABLE",
        "LocalSandbox file operations need Linux with /proc mounted (they resolve paths through /proc/self/fd)",
      );
    });
  return procChecked;
}

/**
 * An open directory. Every method takes one entry *name* (never a path) and
 * acts on that entry of this directory; none follows a symlink in that name.
 * Handles are reference-counted: {@link DirHandle.retain} for each extra
 * owner, {@link DirHandle.close} once per owner; the descriptor closes with
 * the last one, so it is never reused for another file while an owner still
 * resolves names through it.
 *
 * @example
 * const root = await DirHandle.open("/srv/threads/t1/workspace");
 * try {
 *   const sub = await root.openDir("notes");
 *   try { console.log(await sub.readdir()); } finally { await sub.close(); }
 * } finally {
 *   await root.close();
 * }
 */
export class DirHandle {
  readonly #handle: FileHandle;
  #owners = 1;

  private constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  /**
   * Opens a directory by host path (symlinks in it followed: use it only for
   * paths no sandbox can change, such as configured mount roots).
   *
   * @param hostPath - Absolute host path of a directory.
   * @returns The handle (one owner).
   * @throws A Node error (`ENOENT`, `ENOTDIR`...); {@link SandboxError} `UNAVAILABLE` without procfs.
   */
  static async open(hostPath: string): Promise<DirHandle> {
    await requireProcFd();
    return new DirHandle(await fs.open(hostPath, constants.O_RDONLY | O_DIRECTORY));
  }

  /**
   * Adopts an open descriptor that refers to a directory (checked by the caller).
   *
   * @param handle - Becomes owned by the returned DirHandle.
   * @returns The handle (one owner).
   */
  static adopt(handle: FileHandle): DirHandle {
    return new DirHandle(handle);
  }

  /** The descriptor (for diagnostics). */
  get fd(): number {
    return this.#handle.fd;
  }

  /**
   * The procfs path of an entry of this directory, or of the directory itself.
   *
   * @param name - One path component (no `/`, not `.` or `..`), or `undefined` for the directory.
   * @returns `/proc/self/fd/<fd>[/<name>]`.
   * @throws TypeError for a name that is not a single component, or a closed handle.
   */
  path(name?: string): string {
    if (this.#owners <= 0) throw new TypeError("DirHandle used after close");
    if (name === undefined) return `${FD_ROOT}/${this.#handle.fd}`;
    if (name === "" || name === "." || name === ".." || name.includes("/") || name.includes("\0")) {
      throw new TypeError(`not a single path component: ${JSON.stringify(name)}`);
    }
    return `${FD_ROOT}/${this.#handle.fd}/${name}`;
  }

  /** Adds an owner; each owner calls {@link DirHandle.close} once. */
  retain(): this {
    if (this.#owners <= 0) throw new TypeError("DirHandle retained after close");
    this.#owners += 1;
    return this;
  }

  /** Drops an owner; the descriptor closes with the last one. */
  async close(): Promise<void> {
    this.#owners -= 1;
    if (this.#owners === 0) await this.#handle.close();
  }

  /**
   * Opens a subdirectory. A symlink in its place is not followed: it fails
   * with `ENOTDIR`, as a file does.
   *
   * @param name - The entry.
   * @returns The subdirectory's handle (one owner).
   */
  async openDir(name: string): Promise<DirHandle> {
    return new DirHandle(await fs.open(this.path(name), constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW));
  }

  /**
   * Opens an entry with `flags | O_NOFOLLOW`: a symlink in its place fails with `ELOOP`.
   *
   * @param name - The entry, or `undefined` to reopen this directory itself (read-only flags only).
   * @param flags - `fs.constants` open flags.
   * @param mode - Mode of a created file (before the umask).
   * @returns The open file.
   */
  async openFile(name: string | undefined, flags: number, mode?: number): Promise<FileHandle> {
    // The descriptor's own procfs entry is a magic link: O_NOFOLLOW would refuse it.
    return fs.open(this.path(name), name === undefined ? flags : flags | O_NOFOLLOW, mode);
  }

  /** `lstat` of an entry (a symlink is described, not followed). */
  lstat(name: string): Promise<Stats> {
    return fs.lstat(this.path(name));
  }

  /** `fstat` of this directory. */
  stat(): Promise<Stats> {
    return this.#handle.stat();
  }

  /** The target of a symlink entry, as stored (`EINVAL` when the entry is not a symlink). */
  readlink(name: string): Promise<string> {
    return fs.readlink(this.path(name));
  }

  /** Creates a subdirectory (`EEXIST` when the name is taken, by anything). */
  async mkdir(name: string, mode: number = NEW_DIR_MODE): Promise<void> {
    await fs.mkdir(this.path(name), mode);
  }

  /** Renames an entry within this directory, replacing `to` (never following it). */
  rename(from: string, to: string): Promise<void> {
    return fs.rename(this.path(from), this.path(to));
  }

  /** Removes a non-directory entry (a symlink itself, never its target). */
  unlink(name: string): Promise<void> {
    return fs.unlink(this.path(name));
  }

  /** The entries of this directory, with their types (symlinks as symlinks). */
  readdir(): Promise<Dirent[]> {
    return fs.readdir(this.path(), { withFileTypes: true });
  }
}

/**
 * Runs `use` with a handle and closes it afterwards, whatever happens.
 *
 * @param handle - An owned handle (or a promise of one).
 * @param use - The work.
 * @returns What `use` returns.
 */
export async function usingDir<T>(
  handle: DirHandle | Promise<DirHandle>,
  use: (dir: DirHandle) => Promise<T>,
): Promise<T> {
  const dir = await handle;
  try {
    return await use(dir);
  } finally {
    await dir.close().catch(() => undefined);
  }
}
