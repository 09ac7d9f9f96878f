/**
 * Walks a skill folder on disk into a flat, sorted, symlink-free listing, and
 * copies such a listing. Used to pack a folder and to install from one: both
 * need the same answer to "which bytes make up this skill", and neither may
 * follow a link out of the folder.
 */
import { constants as fsConstants, createReadStream } from "node:fs";
import { lstat, mkdir, open, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { isPathInside } from "@deerflow/kernel";
import { SkillsError } from "../errors.js";
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_FILE_BYTES, MAX_ARCHIVE_TOTAL_BYTES } from "../limits.js";

/** One regular file of a skill tree. */
interface SkillTreeFile {
  /** Path relative to the skill root, POSIX separators. */
  readonly rel: string;
  /** Real path to read the bytes from (a symlink inside the tree is resolved). */
  readonly source: string;
  /** Permission bits (`mode & 0o777`). */
  readonly mode: number;
  /** Size in bytes when listed; copies read exactly this many. */
  readonly size: number;
}

/** A skill tree listing, sorted by relative path (code-unit order). */
export interface SkillTree {
  /** Directories below the root, POSIX relative paths. */
  readonly directories: readonly string[];
  readonly files: readonly SkillTreeFile[];
}

/** Options of {@link listSkillTree}. */
export interface ListSkillTreeOptions {
  /** Leave out directories whose name starts with `.` (`.git`, `.venv`). Default true. */
  readonly skipDotDirectories?: boolean;
  /**
   * Apply the archive caps. Default true; turned off only for trees that were
   * already bounded (an extracted archive, whose implied parent directories
   * are not archive entries).
   */
  readonly enforceLimits?: boolean;
}

const CREATE_FLAGS = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW;

function invalidPath(message: string, rel: string): SkillsError {
  return new SkillsError("INVALID_PATH", message, { details: { path: rel } });
}

/**
 * Lists the files and directories of the skill folder `root`.
 *
 * Symlinks are resolved: one whose target is inside the folder is listed as
 * the thing it points to (so a packed or installed copy holds real files); one
 * that points outside, dangles or loops is refused. Sockets, FIFOs and devices
 * are refused too. The archive caps apply (4096 entries, 64 MiB per file,
 * 512 MiB in total) so nothing listed here can be rejected on install.
 *
 * @param root - the skill folder.
 * @param options - see {@link ListSkillTreeOptions}.
 * @returns the sorted listing.
 * @throws SkillsError `INVALID_PATH` (escaping, broken or looping symlink,
 *   special file), `SKILL_TOO_LARGE` (caps).
 */
export async function listSkillTree(root: string, options: ListSkillTreeOptions = {}): Promise<SkillTree> {
  const skipDot = options.skipDotDirectories ?? true;
  const limits = options.enforceLimits ?? true;
  const realRoot = await realpath(root);
  const directories: string[] = [];
  const files: SkillTreeFile[] = [];
  let total = 0;

  const count = (): void => {
    const n = directories.length + files.length;
    if (limits && n > MAX_ARCHIVE_ENTRIES) {
      throw new SkillsError(
        "SKILL_TOO_LARGE",
        `Skill directory contains too many entries (more than ${MAX_ARCHIVE_ENTRIES}).`,
      );
    }
  };

  const walk = async (realDir: string, relDir: string, ancestors: ReadonlySet<string>): Promise<void> => {
    const names = (await readdir(realDir)).sort();
    for (const name of names) {
      const rel = relDir === "" ? name : `${relDir}/${name}`;
      const abs = path.join(realDir, name);
      let info = await lstat(abs);
      let real = abs;
      if (info.isSymbolicLink()) {
        try {
          real = await realpath(abs);
          info = await stat(real);
        } catch {
          throw invalidPath(`Skill contains a broken symlink: '${rel}'`, rel);
        }
        if (!isPathInside(real, realRoot))
          throw invalidPath(`Skill contains a symlink that points outside the skill directory: '${rel}'`, rel);
      }
      if (info.isDirectory()) {
        if (skipDot && name.startsWith(".")) continue;
        if (ancestors.has(real)) throw invalidPath(`Skill contains a symlink loop: '${rel}'`, rel);
        directories.push(rel);
        count();
        await walk(real, rel, new Set([...ancestors, real]));
      } else if (info.isFile()) {
        if (limits && info.size > MAX_ARCHIVE_FILE_BYTES)
          throw new SkillsError("SKILL_TOO_LARGE", `Skill file is too large: '${rel}'`, { details: { path: rel } });
        total += info.size;
        if (limits && total > MAX_ARCHIVE_TOTAL_BYTES)
          throw new SkillsError("SKILL_TOO_LARGE", "Skill directory is too large.");
        files.push({ rel, source: real, mode: info.mode & 0o777, size: info.size });
        count();
      } else {
        throw invalidPath(`Skill contains a special file: '${rel}'`, rel);
      }
    }
  };

  await walk(realRoot, "", new Set([realRoot]));
  const byRel = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  directories.sort(byRel);
  files.sort((a, b) => byRel(a.rel, b.rel));
  return { directories, files };
}

/**
 * Copies a listing into `dest` (an existing, empty directory): directories
 * are created, files are written with `O_EXCL | O_NOFOLLOW` keeping their
 * permission bits, and each copy reads at most the size that was listed, so a
 * file growing underneath cannot blow past the caps.
 *
 * @param tree - from {@link listSkillTree}.
 * @param dest - the directory to fill.
 * @param signal - aborts between and during files.
 */
export async function copySkillTree(tree: SkillTree, dest: string, signal?: AbortSignal): Promise<void> {
  for (const dir of tree.directories) await mkdir(path.join(dest, ...dir.split("/")), { mode: 0o755 });
  for (const file of tree.files) {
    signal?.throwIfAborted();
    const target = path.join(dest, ...file.rel.split("/"));
    const handle = await open(target, CREATE_FLAGS, file.mode | 0o600);
    if (file.size === 0) {
      await handle.close();
      continue;
    }
    // `end` is inclusive: read exactly the listed size.
    const input = createReadStream(file.source, { start: 0, end: file.size - 1 });
    await pipeline(input, handle.createWriteStream(), signal ? { signal } : {});
  }
}
