/**
 * `glob` and `grep` over virtual directories: the host tree of the covering
 * mount plus any mounts nested below the search root (each searched in its own
 * folder, the overlaid part of the parent left out), results mapped back to
 * virtual paths, merged, sorted and capped once more.
 */
import type { FileHandle } from "node:fs/promises";
import { SandboxError } from "../errors.js";
import type { Logger } from "../logger.js";
import { DEFAULT_GLOB_RESULTS, DEFAULT_GREP_RESULTS, MAX_GLOB_RESULTS, MAX_GREP_RESULTS } from "../limits.js";
import type { Mount } from "../mount.js";
import type { DirHandle } from "../paths/dir-handle.js";
import { notADirectoryError, notFoundError } from "../paths/fs-errors.js";
import type { MountResolver } from "../paths/mount-resolver.js";
import { OpenRefusedError, openTarget } from "../paths/safe-open.js";
import {
  NOT_ALLOWED_MESSAGE,
  joinVirtual,
  matchMount,
  mountsBelow,
  normalizeVirtualPath,
} from "../paths/virtual-paths.js";
import type { GlobOptions, GrepMatch, GrepOptions, SearchResult } from "../sandbox.js";
import { globFiles } from "../search/glob.js";
import { compileGlob } from "../search/glob-pattern.js";
import { compileSearchRegex, grepFiles } from "../search/grep.js";
import { effectiveMaxResults } from "../search/result-cap.js";
import type { RipgrepSearch } from "../search/ripgrep-search.js";
import { linkKind } from "./link-kind.js";

/** One folder to search (held open), and where it sits below the search root. */
interface SearchRoot {
  readonly dir: DirHandle;
  readonly mount: Mount;
  /** Where the folder really is below its mount's root (links followed). */
  readonly segments: readonly string[];
  /** Relative path of the folder from the search root (`""` for the root itself). */
  readonly prefix: string;
  /** Leaves out subtrees that nested mounts overlay. */
  readonly omit: (relativePath: string) => boolean;
}

/** What a search covers; every handle in it is open until {@link SearchPlan.close}. */
interface SearchPlan {
  readonly virtualRoot: string;
  readonly roots: SearchRoot[];
  /** Directories that exist only as mount points (or their parents), relative to the root. */
  readonly virtualDirs: string[];
  /** Set when the root is a file (grep only). */
  readonly file?: { readonly handle: FileHandle; readonly name: string };
  close(): Promise<void>;
}

/**
 * Globs a virtual directory.
 *
 * @param resolver - The sandbox's mounts.
 * @param virtualPath - Directory to search.
 * @param pattern - Glob relative to it.
 * @param options - Directories, cap.
 * @param logger - Receives unreadable directories at debug level.
 * @returns Sorted virtual paths and the truncation flag.
 * @throws {@link SandboxError} `NOT_FOUND`, `NOT_A_DIRECTORY`, path errors, `INVALID_ARGUMENT`.
 */
export async function globMounts(
  resolver: MountResolver,
  virtualPath: string,
  pattern: string,
  options: GlobOptions,
  logger: Logger,
): Promise<SearchResult<string>> {
  const matcher = compileGlob(pattern, { matchBase: true });
  const cap = effectiveMaxResults(options.maxResults, DEFAULT_GLOB_RESULTS, MAX_GLOB_RESULTS);
  const plan = await planSearch(resolver, virtualPath, false);
  const found: string[] = options.includeDirs === true ? plan.virtualDirs.filter((dir) => matcher(dir)) : [];
  let truncated = false;
  try {
    for (const root of plan.roots) {
      const result = await globFiles(root.dir, pattern, {
        maxResults: cap,
        classifyLink: (rel) =>
          linkKind(resolver, root.mount, [...root.segments, ...rel.split("/")], joinVirtual(plan.virtualRoot, rel)),
        omit: root.omit,
        pathPrefix: root.prefix,
        logger,
        ...(options.includeDirs === undefined ? {} : { includeDirs: options.includeDirs }),
      });
      found.push(...result.matches);
      truncated ||= result.truncated;
    }
  } finally {
    await plan.close();
  }
  const sorted = [...new Set(found)].sort();
  return {
    matches: sorted.slice(0, cap).map((rel) => joinVirtual(plan.virtualRoot, rel)),
    truncated: truncated || sorted.length > cap,
  };
}

/**
 * Greps a virtual file or directory.
 *
 * @param resolver - The sandbox's mounts.
 * @param virtualPath - File or directory to search.
 * @param pattern - Regex (or literal) pattern.
 * @param options - Filter, case, cap.
 * @param logger - Receives skipped files at debug level.
 * @param ripgrep - Lists the files that can match, so the walk reads only those; results are the same without it.
 * @returns Matches with virtual paths, in path then line order, and the truncation flag.
 * @throws {@link SandboxError} `INVALID_ARGUMENT` (`Invalid regex pattern: ...`), `NOT_FOUND`, path errors.
 */
export async function grepMounts(
  resolver: MountResolver,
  virtualPath: string,
  pattern: string,
  options: GrepOptions,
  logger: Logger,
  ripgrep?: RipgrepSearch,
): Promise<SearchResult<GrepMatch>> {
  // Validate the pattern before touching the filesystem, so a bad regex is reported as such.
  const regex = compileSearchRegex(pattern, options.literal === true, options.caseSensitive === true);
  if (options.glob !== undefined) compileGlob(options.glob, { matchBase: true });
  const cap = effectiveMaxResults(options.maxResults, DEFAULT_GREP_RESULTS, MAX_GREP_RESULTS);
  const plan = await planSearch(resolver, virtualPath, true);
  const common = {
    maxResults: cap,
    logger,
    ...(options.glob === undefined ? {} : { glob: options.glob }),
    ...(options.literal === undefined ? {} : { literal: options.literal }),
    ...(options.caseSensitive === undefined ? {} : { caseSensitive: options.caseSensitive }),
  };
  const targets =
    plan.file !== undefined
      ? [{ root: { file: plan.file.handle, name: plan.file.name }, prefix: "", omit: () => false }]
      : plan.roots.map((r) => ({ ...r, root: r.dir }));
  const found: GrepMatch[] = [];
  let truncated = false;
  try {
    // A superset of the files with matches (or undefined: all): the walk leaves the others out unread.
    const roots = plan.roots.map((root) => joinVirtual(plan.virtualRoot, root.prefix));
    const candidates = plan.file === undefined ? await ripgrep?.candidates(regex, plan.virtualRoot, roots) : undefined;
    for (const target of targets) {
      const omit = candidates === undefined ? target.omit : candidates.omitting(target.omit, target.prefix);
      const result = await grepFiles(target.root, pattern, { ...common, omit, pathPrefix: target.prefix });
      for (const match of result.matches) {
        found.push({ path: joinVirtual(plan.virtualRoot, match.relativePath), line: match.line, text: match.text });
      }
      truncated ||= result.truncated;
    }
  } finally {
    await plan.close();
  }
  found.sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
  return { matches: found.slice(0, cap), truncated: truncated || found.length > cap };
}

async function planSearch(resolver: MountResolver, virtualPath: string, allowFile: boolean): Promise<SearchPlan> {
  const virtualRoot = normalizeVirtualPath(virtualPath);
  const nested = mountsBelow(resolver.mounts, virtualRoot);
  const mountPoints = new Set(nested.map((mount) => mount.virtualPath.replace(/\/+$/, "")));
  const covering = matchMount(resolver.mounts, virtualRoot);
  if (covering === undefined && nested.length === 0) {
    throw new SandboxError("PATH_NOT_ALLOWED", NOT_ALLOWED_MESSAGE, { path: virtualRoot });
  }
  const roots: SearchRoot[] = [];
  const virtualDirs = new Set<string>();
  const close = async (): Promise<void> => {
    await Promise.all(roots.map((root) => root.dir.close().catch(() => undefined)));
  };
  const omitUnder = (virtualDir: string) => (rel: string) => mountPoints.has(joinVirtual(virtualDir, rel));
  try {
    if (covering !== undefined) {
      const opened = await resolver.withEntry(
        virtualRoot,
        "read",
        async (entry) => {
          const target = await openTarget(entry).catch((err: unknown) => {
            // A FIFO, socket or device as the root: neither a file to grep nor a folder.
            throw err instanceof OpenRefusedError ? notADirectoryError(virtualRoot) : err;
          });
          return { target, mount: entry.mount, segments: entry.segments, name: entry.name ?? "" };
        },
        { target: "directory" },
      );
      if (opened.target.kind === "file") {
        const { file } = opened.target;
        if (allowFile)
          return {
            virtualRoot,
            roots: [],
            virtualDirs: [],
            file: { handle: file, name: opened.name },
            close: () => file.close(),
          };
        await file.close();
        throw notADirectoryError(virtualRoot);
      }
      roots.push({
        dir: opened.target.dir,
        mount: opened.mount,
        segments: opened.segments,
        prefix: "",
        omit: omitUnder(virtualRoot),
      });
    }
    for (const mount of nested) {
      const mountPath = mount.virtualPath.replace(/\/+$/, "");
      let dir: DirHandle;
      try {
        dir = await resolver.openRoot(mount);
      } catch {
        continue;
      }
      const prefix = virtualRoot === "/" ? mountPath.slice(1) : mountPath.slice(virtualRoot.length + 1);
      const segments = prefix.split("/");
      segments.forEach((_, index) => virtualDirs.add(segments.slice(0, index + 1).join("/")));
      roots.push({ dir, mount, segments: [], prefix, omit: omitUnder(mountPath) });
    }
    if (roots.length === 0) throw notFoundError(virtualRoot, "directory");
  } catch (err) {
    await close();
    throw err;
  }
  return { virtualRoot, roots, virtualDirs: [...virtualDirs], close };
}
