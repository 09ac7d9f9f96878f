/**
 * Read-only access to the files of a skill's directory: a listing and one
 * file's text. Paths are relative to the skill directory; traversal, absolute
 * paths, NUL bytes and symlinks leading out of the directory are refused, and
 * the listing never follows symlinks.
 */
import { constants, promises as fs } from "node:fs";
import path from "node:path";
import { isPathInside } from "@deerflow/kernel";
import { GatewayError } from "../errors.js";

/** Most entries in a listing. */
const MAX_SKILL_FILE_ENTRIES = 1000;
/** Largest file served as text (1 MiB). */
const MAX_SKILL_FILE_BYTES = 1024 * 1024;
/** Bytes checked for a NUL to call a file binary. */
const BINARY_SNIFF_BYTES = 8192;
/** Directory entries visited before the walk stops (bounds work on huge trees). */
const MAX_VISITED = 10 * MAX_SKILL_FILE_ENTRIES;
const MAX_DEPTH = 32;

/** One listed file. */
interface SkillFileEntry {
  /** POSIX path relative to the skill directory. */
  readonly path: string;
  readonly size: number;
}

/** A listing: sorted by path, at most {@link MAX_SKILL_FILE_ENTRIES}. */
export interface SkillFileListing {
  readonly files: SkillFileEntry[];
  /** True when files were left out. */
  readonly truncated: boolean;
}

function traversal(): GatewayError {
  return new GatewayError("PATH_TRAVERSAL", "Access denied: path traversal detected");
}

/**
 * Lists the regular files under `dir` (directories omitted, symlinks skipped).
 *
 * @param dir - the skill directory.
 * @returns the sorted listing.
 */
export async function listSkillFiles(dir: string): Promise<SkillFileListing> {
  const files: SkillFileEntry[] = [];
  let visited = 0;
  let truncated = false;
  const pending: Array<[string, number]> = [["", 0]];
  while (pending.length > 0) {
    const [rel, depth] = pending.pop()!;
    const entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    for (const entry of entries) {
      if (++visited > MAX_VISITED) {
        truncated = true;
        break;
      }
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) pending.push([child, depth + 1]);
        else truncated = true;
      } else if (entry.isFile()) {
        const stat = await fs.lstat(path.join(dir, child));
        if (stat.isFile()) files.push({ path: child, size: stat.size });
      }
      // Symlinks, sockets, FIFOs... are skipped.
    }
    if (truncated && visited > MAX_VISITED) break;
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (files.length > MAX_SKILL_FILE_ENTRIES) truncated = true;
  return { files: files.slice(0, MAX_SKILL_FILE_ENTRIES), truncated };
}

function hasTraversal(rel: string): boolean {
  if (rel.includes("\0") || rel.startsWith("/") || rel.startsWith("\\") || /^[A-Za-z]:/.test(rel)) return true;
  return rel.split(/[\\/]/).some((segment) => segment === "..");
}

/**
 * Checks a relative path from the URL (already percent-decoded once by the
 * router; a second decoding is checked too, so `%252e%252e` is refused).
 *
 * @throws GatewayError `PATH_TRAVERSAL`.
 */
function checkRelativePath(rel: string): void {
  let decoded = rel;
  try {
    decoded = decodeURIComponent(rel);
  } catch {
    // Not decodable again: check it as it is.
  }
  if (hasTraversal(rel) || hasTraversal(decoded)) throw traversal();
}

/**
 * Reads one file of a skill as UTF-8 text.
 *
 * @param dir - the skill directory.
 * @param rel - the file's path relative to it, as given by the caller.
 * @param skillName - for messages.
 * @returns the file's text.
 * @throws GatewayError `PATH_TRAVERSAL` (403), `FILE_NOT_FOUND` (404), `FILE_TOO_LARGE` (413), `UNSUPPORTED_MEDIA_TYPE` (415).
 */
export async function readSkillFile(dir: string, rel: string, skillName: string): Promise<string> {
  checkRelativePath(rel);
  const notFound = new GatewayError("FILE_NOT_FOUND", `File '${rel}' not found in skill '${skillName}'`);
  const root = await fs.realpath(dir);
  const target = path.resolve(root, rel);
  if (!isPathInside(target, root)) throw traversal();
  let real: string;
  try {
    real = await fs.realpath(target);
  } catch {
    throw notFound;
  }
  if (!isPathInside(real, root)) throw traversal();
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as { code?: unknown }).code === "ELOOP") throw traversal();
    throw notFound;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notFound;
    if (stat.size > MAX_SKILL_FILE_BYTES)
      throw new GatewayError("FILE_TOO_LARGE", `File '${rel}' is too large (over 1 MiB)`);
    const data = await handle.readFile();
    if (data.length > MAX_SKILL_FILE_BYTES)
      throw new GatewayError("FILE_TOO_LARGE", `File '${rel}' is too large (over 1 MiB)`);
    if (data.subarray(0, BINARY_SNIFF_BYTES).includes(0))
      throw new GatewayError("UNSUPPORTED_MEDIA_TYPE", `File '${rel}' is binary`);
    return data.toString("utf8");
  } finally {
    await handle.close();
  }
}
