/**
 * Path containment, written once: is a path a folder or below it?
 *
 * The argument order is in the name: `isPathInside(candidate, root)` reads as
 * "is candidate inside root". The check is lexical (no file system access, no
 * working directory): both paths are normalised (`.`/`..` segments, doubled and
 * trailing separators), then compared at a segment boundary, so `/a` does not
 * contain `/ab`. Symlinks are the caller's business: pass canonical paths
 * (`fs.realpath`) where a link could lead out.
 */
import path from "node:path";

/** Options of {@link isPathInside}. */
export interface PathInsideOptions {
  /** Only paths strictly below `root` count (`root` itself does not). Default false. */
  readonly strict?: boolean;
  /**
   * Compare as POSIX paths whatever the host (the agents' virtual paths such as
   * `/mnt/user-data/...`). Default false: host paths, with the platform's rules.
   */
  readonly posix?: boolean;
}

function canonical(p: string, api: path.PlatformPath): string {
  const normalized = api.normalize(p);
  // A trailing separator names the same folder, except on the file system root itself.
  return normalized.length > 1 && normalized.endsWith(api.sep) && api.parse(normalized).root !== normalized
    ? normalized.slice(0, -1)
    : normalized;
}

/**
 * True when `candidate` is `root` or lies below it.
 *
 * @param candidate - The path to check (absolute, or relative like `root`).
 * @param root - The folder it must stay in.
 * @param options - `strict` to exclude `root` itself; `posix` for virtual paths.
 * @returns Whether `candidate` is inside `root`. An absolute path is never inside
 *   a relative one, nor the reverse.
 * @example
 * ```ts
 * isPathInside("/srv/data/a.txt", "/srv/data");      // true
 * isPathInside("/srv/database", "/srv/data");        // false: not at a segment boundary
 * isPathInside("/srv/data/../etc", "/srv/data");     // false
 * isPathInside("/srv/data", "/srv/data/", { strict: true }); // false
 * ```
 */
export function isPathInside(candidate: string, root: string, options: PathInsideOptions = {}): boolean {
  const api = options.posix === true ? path.posix : path;
  const c = canonical(candidate, api);
  const r = canonical(root, api);
  if (c === r) return options.strict !== true;
  if (api.isAbsolute(c) !== api.isAbsolute(r)) return false;
  if (r === ".") return c !== ".." && !c.startsWith(`..${api.sep}`);
  return c.startsWith(r.endsWith(api.sep) ? r : r + api.sep);
}
