/**
 * Depth-first directory walk shared by `listDir`, `glob` and `grep`. It never
 * follows symlinks (they are reported as `symlink` entries for the caller to
 * judge with {@link classifySymlink}), skips ignored names, visits entries in
 * name order, and holds one directory listing per level in memory.
 */
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../logger.js";
import { silentLogger } from "../logger.js";
import { isHostPathWithin } from "../paths/virtual-paths.js";
import { isIgnoredName } from "./ignore.js";

/** The type of a walked entry itself (a symlink is not followed). */
export type EntryKind = "file" | "directory" | "symlink" | "other";

/** One entry found by {@link walkTree}. */
export interface WalkEntry {
  /** POSIX path relative to the walk root. */
  readonly relativePath: string;
  /** Absolute host path. */
  readonly hostPath: string;
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

interface Frame {
  readonly hostDir: string;
  readonly relativeDir: string;
  readonly depth: number;
  readonly entries: Dirent[];
  index: number;
}

/**
 * Walks `root` (a real host directory) in pre-order. Stop early by breaking
 * out of the loop; nothing more is read afterwards.
 *
 * @param root - Absolute host directory.
 * @param options - Depth limit and pruning.
 * @yields Entries in name order, each directory before its contents.
 * @example
 * for await (const entry of walkTree(dir)) if (entry.kind === "file") console.log(entry.relativePath);
 */
export async function* walkTree(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const logger = options.logger ?? silentLogger;
  const first = await readSorted(root, logger);
  if (first === undefined) return;
  const stack: Frame[] = [{ hostDir: root, relativeDir: "", depth: 1, entries: first, index: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const dirent = frame.entries[frame.index++];
    if (dirent === undefined) {
      stack.pop();
      continue;
    }
    if (isIgnoredName(dirent.name)) continue;
    const relativePath = frame.relativeDir === "" ? dirent.name : `${frame.relativeDir}/${dirent.name}`;
    if (options.omit?.(relativePath) === true) continue;
    const hostPath = path.join(frame.hostDir, dirent.name);
    const kind = kindOf(dirent);
    yield { relativePath, hostPath, kind, depth: frame.depth };
    if (kind !== "directory" || frame.depth >= maxDepth) continue;
    const entries = await readSorted(hostPath, logger);
    if (entries !== undefined) {
      stack.push({ hostDir: hostPath, relativeDir: relativePath, depth: frame.depth + 1, entries, index: 0 });
    }
  }
}

/**
 * Decides what a symlink found during a walk stands for: its target's kind
 * when the target exists inside `boundary`, otherwise `undefined` (dangling
 * or escaping links are skipped by every walk).
 *
 * @param hostPath - The symlink's host path.
 * @param boundary - Real host directory the target must stay inside.
 * @returns `file`, `directory` or `other`, or `undefined` to skip the link.
 */
export async function classifySymlink(hostPath: string, boundary: string): Promise<EntryKind | undefined> {
  try {
    const target = await fs.realpath(hostPath);
    if (!isHostPathWithin(boundary, target)) return undefined;
    const stats = await fs.stat(target);
    return stats.isDirectory() ? "directory" : stats.isFile() ? "file" : "other";
  } catch {
    return undefined;
  }
}

async function readSorted(dir: string, logger: Logger): Promise<Dirent[] | undefined> {
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
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
