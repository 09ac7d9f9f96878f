import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { SKILL_FILE_NAME } from "../limits.js";
import { mapConcurrent } from "./map-concurrent.js";

/** A directory the walk could not read (it is skipped, the walk goes on). */
export interface WalkIssue {
  /** Directory relative to the walked root, POSIX separators (`.` for the root). */
  readonly dir: string;
  /** Stable code: `directory-unreadable`. */
  readonly code: "directory-unreadable";
  /** What went wrong, without host paths (the errno code). */
  readonly message: string;
}

/** Every SKILL.md found under one root, in sorted walk order. */
export interface SkillFileWalk {
  /** Absolute paths as walked (through symlinks, not resolved), sorted by directory path. */
  readonly files: readonly string[];
  readonly issues: readonly WalkIssue[];
}

/** Options of {@link findSkillFiles}. */
export interface FindSkillFilesOptions {
  /** Directories listed concurrently (default 32). */
  readonly concurrency?: number;
  /**
   * Called as soon as a package is found (in level order, before the walk
   * ends), so callers can start loading it while the walk goes on.
   */
  readonly onPackage?: (file: string) => void;
}

interface WalkNode {
  readonly dir: string;
  readonly segments: readonly string[];
  /** Real path of `dir`, the identity used for loop protection. */
  readonly real: string;
}

type Listing =
  | { readonly kind: "package" }
  | { readonly kind: "children"; readonly children: readonly WalkNode[] }
  | { readonly kind: "error"; readonly code: string };

/**
 * Finds the SKILL.md files under `root` the way DeerFlow's discovery walk does:
 *
 * - subdirectories are visited in sorted order and symlinked directories are
 *   followed;
 * - directories whose name starts with `.` (`.history`, `.git`,
 *   `.installing-*`) are skipped;
 * - a directory holding a SKILL.md is a package boundary: nothing below it is
 *   searched, so eval fixtures and examples never register;
 * - namespace directories without a SKILL.md are recursed into.
 *
 * The walk goes level by level, listing each level's directories concurrently.
 * Loop protection tracks the real path of every visited directory: a directory
 * reached a second time (a symlink loop, or two links to one target) is
 * skipped, so the walk always terminates and never yields a package twice.
 * Which alias wins is deterministic: the shallowest, then the first in sorted
 * order.
 *
 * @param root - The directory to walk (e.g. `<skills>/public`). A missing root yields nothing.
 * @returns The SKILL.md paths sorted by their directory's path segments, plus unreadable directories.
 * @throws Node's error when `root` exists but cannot be resolved or read.
 */
export async function findSkillFiles(root: string, options: FindSkillFilesOptions = {}): Promise<SkillFileWalk> {
  const concurrency = options.concurrency ?? 32;
  let rootReal: string;
  try {
    rootReal = await fs.realpath(root);
  } catch (err) {
    if (isMissing(err)) return { files: [], issues: [] };
    throw err;
  }
  const visited = new Set<string>([rootReal]);
  const found: { file: string; segments: readonly string[] }[] = [];
  const issues: WalkIssue[] = [];
  let frontier: WalkNode[] = [{ dir: root, segments: [], real: rootReal }];
  let depth = 0;
  while (frontier.length > 0) {
    const listings = await mapConcurrent(frontier, concurrency, (node) => listNode(node, depth === 0));
    const next: WalkNode[] = [];
    listings.forEach((listing, i) => {
      const node = frontier[i] as WalkNode;
      if (listing.kind === "package") {
        const file = path.join(node.dir, SKILL_FILE_NAME);
        found.push({ file, segments: node.segments });
        options.onPackage?.(file);
      } else if (listing.kind === "error")
        issues.push({
          dir: relOf(node),
          code: "directory-unreadable",
          message: `Directory cannot be read (${listing.code})`,
        });
      else {
        for (const child of listing.children) {
          if (visited.has(child.real)) continue;
          visited.add(child.real);
          next.push(child);
        }
      }
    });
    frontier = next;
    depth++;
  }
  found.sort((a, b) => compareSegments(a.segments, b.segments));
  return { files: found.map((f) => f.file), issues };
}

async function listNode(node: WalkNode, isRoot: boolean): Promise<Listing> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(node.dir, { withFileTypes: true });
  } catch (err) {
    // The root's errors are the caller's problem; a subdirectory that vanished
    // mid-walk is simply gone, and an unreadable one is reported.
    if (isRoot) throw err;
    if (isMissing(err)) return { kind: "children", children: [] };
    return { kind: "error", code: errnoCode(err) };
  }
  if (entries.some((e) => e.name === SKILL_FILE_NAME && !e.isDirectory())) return { kind: "package" };
  const names = entries.filter((e) => !e.name.startsWith(".") && (e.isDirectory() || e.isSymbolicLink()));
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const children: WalkNode[] = [];
  for (const entry of names) {
    const dir = path.join(node.dir, entry.name);
    const segments = [...node.segments, entry.name];
    if (entry.isDirectory()) {
      children.push({ dir, segments, real: path.join(node.real, entry.name) });
      continue;
    }
    // A symlink: follow it only when it resolves to a directory.
    try {
      const real = await fs.realpath(dir);
      if ((await fs.stat(real)).isDirectory()) children.push({ dir, segments, real });
    } catch {
      // Dangling or unreadable link: nothing to walk.
    }
  }
  return { kind: "children", children };
}

function compareSegments(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function relOf(node: WalkNode): string {
  return node.segments.length === 0 ? "." : node.segments.join("/");
}

function isMissing(err: unknown): boolean {
  const code = errnoCode(err);
  return code === "ENOENT" || code === "ENOTDIR";
}

function errnoCode(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : "unknown error";
}
