/**
 * Private copies of `.skill` archives: the install always reads a file the
 * gateway owns, so an agent cannot swap the archive in the thread's folders
 * between the checks and the extraction.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { GatewayError } from "../errors.js";

/** A private temp folder; remove it with `dispose`. */
export interface PrivateDir {
  readonly dir: string;
  dispose(): Promise<void>;
}

/**
 * @param tempDir - parent folder (default `os.tmpdir()`).
 * @returns a fresh folder readable only by this process's user.
 */
export async function privateDir(tempDir?: string): Promise<PrivateDir> {
  const dir = await fs.mkdtemp(path.join(tempDir ?? os.tmpdir(), "deerflow-gateway-skill-"));
  return { dir, dispose: () => fs.rm(dir, { recursive: true, force: true }).catch(() => undefined) };
}

/**
 * Copies a stream into `<dir>/archive.skill`, failing past `maxBytes`.
 *
 * @param source - the archive's bytes.
 * @param dir - a private folder.
 * @param maxBytes - the largest archive accepted.
 * @returns the copy's path.
 * @throws GatewayError `BAD_REQUEST` past the limit.
 */
export async function copyArchive(source: AsyncIterable<Uint8Array>, dir: string, maxBytes: number): Promise<string> {
  const file = path.join(dir, "archive.skill");
  let total = 0;
  async function* capped(): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > maxBytes)
        throw new GatewayError("BAD_REQUEST", "Skill archive is too large or appears highly compressed.");
      yield chunk;
    }
  }
  await pipeline(capped(), (await fs.open(file, "wx", 0o600)).createWriteStream());
  return file;
}
