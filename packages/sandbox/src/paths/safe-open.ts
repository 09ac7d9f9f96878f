/**
 * Opening the target of a resolved path (an entry of a directory held open,
 * see `mount-resolver.ts`) without trusting what sits there: no following of
 * a symlink (`ELOOP`, which the resolver turns into following the link
 * virtually), no blocking on FIFOs, and a type check on the open descriptor.
 */
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { DirHandle } from "./dir-handle.js";
import { notADirectoryError } from "./fs-errors.js";
import { OpenRefusedError } from "./open-refused-error.js";

export { OpenRefusedError } from "./open-refused-error.js";

const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
/** Mode of files created by an append, before the umask. */
const APPEND_FILE_MODE = 0o644;

/** Open flags of {@link openRegularFile}. */
export type OpenMode = "read" | "append";

/**
 * Opens a regular file of `dir` for reading or appending.
 *
 * @param dir - The directory holding it.
 * @param name - Its name there; `undefined` means `dir` itself (refused as a directory).
 * @param mode - `read`, or `append` (creates the file when missing).
 * @returns An open handle; the caller closes it.
 * @throws {@link OpenRefusedError} for a directory or a FIFO/socket/device; Node's
 *   error otherwise: `ELOOP` when `name` holds a symlink, `ENOENT`, `EACCES`...
 */
export async function openRegularFile(dir: DirHandle, name: string | undefined, mode: OpenMode): Promise<FileHandle> {
  if (name === undefined) throw new OpenRefusedError("directory");
  const flags =
    mode === "read"
      ? constants.O_RDONLY | O_NONBLOCK
      : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NONBLOCK;
  let handle: FileHandle;
  try {
    handle = await dir.openFile(name, flags, APPEND_FILE_MODE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EISDIR") throw new OpenRefusedError("directory");
    // ENXIO: a FIFO without a reader, opened for writing without blocking.
    if (code === "ENXIO") throw new OpenRefusedError("not-regular");
    throw err;
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new OpenRefusedError("directory");
    if (!stats.isFile()) throw new OpenRefusedError("not-regular");
    return handle;
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/** What {@link openTarget} found. */
export type OpenedTarget =
  | { readonly kind: "directory"; readonly dir: DirHandle }
  | { readonly kind: "file"; readonly file: FileHandle };

/**
 * Opens whatever a resolved path names, for reading: a directory or a regular file.
 *
 * @param entry - The directory holding the target and its name (`undefined`: the directory itself).
 * @returns The open directory (one owner) or file; the caller closes it.
 * @throws {@link OpenRefusedError} `not-regular` for a FIFO/socket/device; Node's
 *   error otherwise (`ELOOP` when the name holds a symlink, `ENOENT`...).
 */
export async function openTarget(entry: {
  readonly dir: DirHandle;
  readonly name: string | undefined;
}): Promise<OpenedTarget> {
  if (entry.name === undefined) return { kind: "directory", dir: entry.dir.retain() };
  // No O_DIRECTORY: with it a symlink fails as ENOTDIR, without it as ELOOP, which the resolver follows.
  const handle = await entry.dir.openFile(entry.name, constants.O_RDONLY | O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) return { kind: "directory", dir: DirHandle.adopt(handle) };
    if (stats.isFile()) return { kind: "file", file: handle };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  await handle.close().catch(() => undefined);
  throw new OpenRefusedError("not-regular");
}

/**
 * Opens the directory a resolved path names.
 *
 * @param entry - As {@link openTarget}, with the virtual path for the error.
 * @returns The directory (one owner); the caller closes it.
 * @throws {@link SandboxError} `NOT_A_DIRECTORY` for anything else; as {@link openTarget}.
 */
export async function openDirectory(entry: {
  readonly dir: DirHandle;
  readonly name: string | undefined;
  readonly virtualPath: string;
}): Promise<DirHandle> {
  let target: OpenedTarget;
  try {
    target = await openTarget(entry);
  } catch (err) {
    if (err instanceof OpenRefusedError) throw notADirectoryError(entry.virtualPath);
    throw err;
  }
  if (target.kind === "directory") return target.dir;
  await target.file.close().catch(() => undefined);
  throw notADirectoryError(entry.virtualPath);
}
