/**
 * Depth-first directory walk shared by `listDir`, `glob` and `grep`. It
 * starts from a directory held open and opens each subdirectory relative to
 * its parent's handle with `O_NOFOLLOW` (see `DirHandle`), so nothing a
 * sandbox renames or swaps during the walk can lead it outside the tree it
 * started in. It never follows symlinks (they are reported as `symlink`
 * entries for the caller to judge), skips ignored names, visits entries in
 * name order, and holds one directory listing per level in memory.
 */
import type { Dirent } from "node:fs";
import type { Logger } from "../logger.js";
import { silentLogger } from "../logger.js";
import type { DirHandle } from "../paths/dir-handle.js";
import { isIgnoredName } from "./ignore.js";

/** The type of a walked entry itself (a symlink is not followed). */
export type EntryKind = "file" | "directory" | "symlink" | "other";

/** One entry found by {@link walkTree}. */
export interface WalkEntry {
  /** POSIX path relative to the walk root. */
  readonly relativePath: string;
  /**
   * The directory holding the entry. Valid until the walk moves on: to use
   * it later (e.g. to open the file after the next entry), `retain()` it and
   * `close()` it when done.
   */
  readonly parent: DirHandle;
  /** The entry's name in `parent`. */
  readonly name: string;
  readonly kind: EntryKind;
  /** 1 for the root's direct children. */
  readonly depth: number;
}

/** Options of {@link walkTree}. */
export interface WalkOptions {
  /** Deepest level to report (1 = direct children). Default unlimited. */
  readonly maxDepth?: number;
  /** Entries (by relative path) to leave out with their subtrees, e.g. where a nested mount overlays the tree. */
  readonly omit?: (relativePath: string) => boolean;
  /** Receives unreadable directories at debug level. */
  readonly logger?: Logger;
}

/**
 * Levels whose directories stay open for the whole walk. Deeper levels keep
 * theirs open only while they are the innermost, and are reopened from the
 * deepest open ancestor when needed again, so a hostile, very deep tree
 * costs time, never thousands of descriptors.
 */
const HELD_LEVELS = 32;

interface Frame {
  /** Open while held (or while innermost, past {@link HELD_LEVELS}). */
  dir: DirHandle | undefined;
  readonly name: string;
  readonly relativeDir: string;
  readonly depth: number;
  readonly entries: Dirent[];
  index: number;
}

/**
 * Walks the directory `root` in pre-order. Stop early by breaking out of the
 * loop; nothing more is read afterwards and every handle it opened is closed.
 *
 * @param root - An open directory (the walk does not close it).
 * @param options - Depth limit and pruning.
 * @yields Entries in name order, each directory before its contents.
 * @example
 * for await (const entry of walkTree(dir)) if (entry.kind === "file") console.log(entry.relativePath);
 */
export async function* walkTree(root: DirHandle, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const logger = options.logger ?? silentLogger;
  const first = await readSorted(root, logger);
  if (first === undefined) return;
  const stack: Frame[] = [{ dir: root.retain(), name: "", relativeDir: "", depth: 1, entries: first, index: 0 }];
  try {
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      const dirent = frame.entries[frame.index++];
      if (dirent === undefined) {
        await stack.pop()?.dir?.close();
        continue;
      }
      if (isIgnoredName(dirent.name)) continue;
      const relativePath = frame.relativeDir === "" ? dirent.name : `${frame.relativeDir}/${dirent.name}`;
      if (options.omit?.(relativePath) === true) continue;
      const parent = await frameDir(stack);
      if (parent === undefined) {
        logger.debug({}, "sandbox walk lost a directory that moved away");
        await stack.pop()?.dir?.close();
        continue;
      }
      const kind = kindOf(dirent);
      yield { relativePath, parent, name: dirent.name, kind, depth: frame.depth };
      if (kind !== "directory" || frame.depth >= maxDepth) continue;
      let child: DirHandle;
      try {
        child = await parent.openDir(dirent.name);
      } catch (err) {
        // Swapped for a symlink or removed since the listing: not followed.
        logger.debug(
          { code: (err as NodeJS.ErrnoException).code },
          "sandbox walk skipped a directory it could not open",
        );
        continue;
      }
      const entries = await readSorted(child, logger);
      if (entries === undefined) {
        await child.close();
        continue;
      }
      if (stack.length > HELD_LEVELS) {
        await frame.dir?.close();
        frame.dir = undefined;
      }
      stack.push({
        dir: child,
        name: dirent.name,
        relativeDir: relativePath,
        depth: frame.depth + 1,
        entries,
        index: 0,
      });
    }
  } finally {
    await Promise.all(stack.map(async (frame) => frame.dir?.close().catch(() => undefined)));
  }
}

/**
 * The innermost frame's directory, reopened by name from the deepest open
 * ancestor when it was let go (`undefined` if it can no longer be reached
 * that way: moved or swapped meanwhile).
 */
async function frameDir(stack: Frame[]): Promise<DirHandle | undefined> {
  const top = stack[stack.length - 1] as Frame;
  if (top.dir !== undefined) return top.dir;
  let open = stack.length - 1;
  while ((stack[open] as Frame).dir === undefined) open--;
  let dir = ((stack[open] as Frame).dir as DirHandle).retain();
  for (let level = open + 1; level < stack.length; level++) {
    const next = await dir.openDir((stack[level] as Frame).name).catch(() => undefined);
    await dir.close().catch(() => undefined);
    if (next === undefined) return undefined;
    dir = next;
  }
  top.dir = dir;
  return dir;
}

async function readSorted(dir: DirHandle, logger: Logger): Promise<Dirent[] | undefined> {
  try {
    const entries = await dir.readdir();
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    logger.debug({ code: (err as NodeJS.ErrnoException).code }, "sandbox walk skipped an unreadable directory");
    return undefined;
  }
}

function kindOf(dirent: Dirent): EntryKind {
  if (dirent.isSymbolicLink()) return "symlink";
  if (dirent.isDirectory()) return "directory";
  if (dirent.isFile()) return "file";
  return "other";
}
