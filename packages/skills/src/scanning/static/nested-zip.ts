/**
 * Peeks into a nested zip to see whether it smuggles an executable. Only the
 * first bytes of at most {@link NESTED_ZIP_PEEK_LIMIT} members are inflated, so
 * a zip bomb inside the package costs nothing.
 */
import unzipper from "unzipper";
import { executableKind } from "./magic.js";

/** Most members of a nested zip whose first bytes are inspected. */
const NESTED_ZIP_PEEK_LIMIT = 256;

const MAGIC_BYTES = 4;

/**
 * Reads the first bytes of a readable stream, then destroys it.
 *
 * @param stream - an entry stream.
 * @param count - how many bytes are wanted.
 * @returns up to `count` bytes.
 */
async function readPrefix(
  stream: NodeJS.ReadableStream & { destroy?: (error?: Error) => void },
  count: number,
): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      chunks.push(buf);
      total += buf.length;
      if (total >= count) break;
    }
  } finally {
    stream.destroy?.();
  }
  return Buffer.concat(chunks).subarray(0, count);
}

/**
 * True when one of the first {@link NESTED_ZIP_PEEK_LIMIT} file members of the
 * zip at `file` starts with an executable magic. Unreadable or corrupt zips
 * count as not containing one; the nested-archive finding is raised anyway.
 *
 * @param file - absolute path of the nested zip.
 * @returns whether an executable member was found.
 */
export async function nestedZipContainsExecutable(file: string): Promise<boolean> {
  let directory: Awaited<ReturnType<typeof unzipper.Open.file>>;
  try {
    directory = await unzipper.Open.file(file);
  } catch {
    return false;
  }
  for (const member of directory.files.slice(0, NESTED_ZIP_PEEK_LIMIT)) {
    if (member.type === "Directory") continue;
    try {
      const prefix = await readPrefix(member.stream(), MAGIC_BYTES);
      if (executableKind(prefix) !== null) return true;
    } catch {
      continue;
    }
  }
  return false;
}
