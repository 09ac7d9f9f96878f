/**
 * Opening files that were resolved earlier, without trusting that nothing
 * changed in between. An agent's own processes can swap a file for a symlink
 * or a FIFO between our check and our `open`; these helpers close that window
 * as far as Node allows: no following of a final symlink, no blocking on
 * FIFOs, a regular-file check on the open descriptor, and (on Linux) a check
 * of where the descriptor really points.
 */
import { constants } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import { isHostPathWithin } from "./virtual-paths.js";

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Why {@link openRegularFileWithin} refused a file. */
export type OpenRefusal = "escape" | "not-regular" | "directory";

/** Raised by {@link openRegularFileWithin}; callers map it to a `SandboxError`. */
export class OpenRefusedError extends Error {
  readonly reason: OpenRefusal;

  constructor(reason: OpenRefusal) {
    super(`open refused: ${reason}`);
    this.name = "OpenRefusedError";
    this.reason = reason;
  }
}

/** Open flags of {@link openRegularFileWithin}. */
export type OpenMode = "read" | "append";

/**
 * Opens a regular file for reading or appending and proves it lies inside
 * `boundary`.
 *
 * @param hostPath - The already-resolved real host path.
 * @param mode - `read`, or `append` (creates the file when missing).
 * @param boundary - The real host directory the file must stay inside.
 * @returns An open handle; the caller closes it.
 * @throws {@link OpenRefusedError} for a symlink swapped in (`escape`), a
 *   descriptor that points outside `boundary` (`escape`), a directory
 *   (`directory`) or a FIFO/socket/device (`not-regular`); Node's error for
 *   other failures (`ENOENT`, `EACCES`...).
 */
export async function openRegularFileWithin(hostPath: string, mode: OpenMode, boundary: string): Promise<FileHandle> {
  const flags =
    mode === "read"
      ? constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK
      : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW | O_NONBLOCK;
  let handle: FileHandle;
  try {
    handle = await fs.open(hostPath, flags, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ELOOP: the final component became a symlink after we resolved it.
    if (code === "ELOOP") throw new OpenRefusedError("escape");
    if (code === "EISDIR") throw new OpenRefusedError("directory");
    // ENXIO: a FIFO without a reader, opened for writing without blocking.
    if (code === "ENXIO") throw new OpenRefusedError("not-regular");
    throw err;
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new OpenRefusedError("directory");
    if (!stats.isFile()) throw new OpenRefusedError("not-regular");
    const actual = await descriptorPath(handle.fd);
    if (actual !== undefined && !isHostPathWithin(boundary, actual)) throw new OpenRefusedError("escape");
    return handle;
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Where an open descriptor points, read from `/proc/self/fd` (Linux). Returns
 * `undefined` where procfs is unavailable or the file was deleted meanwhile.
 *
 * @param fd - An open file descriptor.
 * @returns The absolute path, or `undefined` when it cannot be known.
 */
export async function descriptorPath(fd: number): Promise<string | undefined> {
  try {
    const target = await fs.readlink(`/proc/self/fd/${fd}`);
    if (!target.startsWith("/") || target.endsWith(" (deleted)")) return undefined;
    return target;
  } catch {
    return undefined;
  }
}
