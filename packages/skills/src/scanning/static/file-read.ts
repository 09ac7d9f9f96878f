/**
 * Bounded reads that refuse to follow a symlink swapped in after the walk and
 * never block on a FIFO (`O_NOFOLLOW | O_NONBLOCK`, then `fstat`).
 */
import { constants, promises as fs } from "node:fs";

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads at most `maxBytes` from the start of a regular file.
 *
 * @param absPath - the file.
 * @param maxBytes - upper bound of the read.
 * @returns the bytes read.
 * @throws Error when the path is no longer a regular file, or on I/O errors.
 */
export async function readFilePrefix(absPath: string, maxBytes: number): Promise<Buffer> {
  const handle = await fs.open(absPath, OPEN_FLAGS);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error("not a regular file");
    const buffer = Buffer.alloc(Math.min(maxBytes, stat.size));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
