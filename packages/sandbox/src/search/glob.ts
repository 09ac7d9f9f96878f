/**
 * `glob` over a host directory tree with DeerFlow's rules: a pattern without
 * `/` matches file names at any depth, any other is anchored at the root (see
 * `compileGlob`); ignored names are pruned; symlinks are never walked through
 * (the caller's `classifyLink` says what one counts as; without it links are
 * skipped); the search stops one match past the cap to know whether results
 * were cut.
 */
import type { Logger } from "../logger.js";
import { DEFAULT_GLOB_RESULTS, MAX_GLOB_RESULTS } from "../limits.js";
import type { DirHandle } from "../paths/dir-handle.js";
import { compileGlob } from "./glob-pattern.js";
import { collector, effectiveMaxResults, type CappedResult } from "./result-cap.js";
import { walkTree, type EntryKind } from "./walk.js";

/** Options of {@link globFiles}. */
export interface GlobFilesOptions {
  /** Also match directories. Default false. */
  readonly includeDirs?: boolean;
  /** Default 200, capped at 1000; `<= 0` means the default. */
  readonly maxResults?: number;
  /**
   * What a symlink at `relativePath` (relative to the root, without the
   * prefix) counts as: its target's kind when the target is acceptable, else
   * `undefined` (skipped). Default: every link is skipped.
   */
  readonly classifyLink?: (relativePath: string) => Promise<EntryKind | undefined>;
  /** Relative paths to leave out with their subtrees (nested mount points). */
  readonly omit?: (relativePath: string) => boolean;
  /** Prepended (with `/`) to relative paths before matching and in results. */
  readonly pathPrefix?: string;
  readonly logger?: Logger;
}

/**
 * Finds paths under `root` whose path relative to `root` matches `pattern`.
 *
 * @param root - An open directory (not closed here).
 * @param pattern - Glob relative to `root` (`compileGlob` with `matchBase`).
 * @param options - Directories, cap, link classification.
 * @returns Relative POSIX paths, sorted, and whether more matched than the cap.
 * @throws {@link SandboxError} `INVALID_ARGUMENT` for a malformed pattern.
 * @example
 * const { matches, truncated } = await globFiles(dir, "**" + "/*.py");
 */
export async function globFiles(
  root: DirHandle,
  pattern: string,
  options: GlobFilesOptions = {},
): Promise<CappedResult<string>> {
  const matcher = compileGlob(pattern, { matchBase: true });
  const cap = effectiveMaxResults(options.maxResults, DEFAULT_GLOB_RESULTS, MAX_GLOB_RESULTS);
  const prefix = options.pathPrefix ?? "";
  const results = collector<string>(cap);
  const walkOptions = {
    ...(options.omit === undefined ? {} : { omit: options.omit }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  };
  for await (const entry of walkTree(root, walkOptions)) {
    if (entry.kind === "other" || (entry.kind === "directory" && options.includeDirs !== true)) continue;
    const relativePath = prefix === "" ? entry.relativePath : `${prefix}/${entry.relativePath}`;
    if (!matcher(relativePath)) continue;
    // A link counts as what it points to, and only when the caller accepts the target.
    const kind = entry.kind === "symlink" ? await options.classifyLink?.(entry.relativePath) : entry.kind;
    if (kind !== "file" && !(kind === "directory" && options.includeDirs === true)) continue;
    if (!results.push(relativePath)) break;
  }
  const { matches, truncated } = results.result();
  return { matches: matches.sort(), truncated };
}
