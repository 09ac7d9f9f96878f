/**
 * The files a prefilter found, used to prune a walk: everything that is not
 * one of them, nor a folder on the way to one, is left out unread.
 */

/**
 * A set of relative file paths (POSIX, relative to the search root) and the
 * folders leading to them.
 *
 * @example
 * const candidates = new CandidateFiles(["src/a.ts"]);
 * const omit = candidates.omitting(() => false);
 * omit("src");      // false: leads to a candidate
 * omit("src/a.ts"); // false
 * omit("lib");      // true
 */
export class CandidateFiles {
  readonly #files: ReadonlySet<string>;
  readonly #folders: ReadonlySet<string>;

  /** @param files - Candidate paths relative to the search root. */
  constructor(files: Iterable<string>) {
    const fileSet = new Set<string>();
    const folders = new Set<string>();
    for (const file of files) {
      fileSet.add(file);
      for (let slash = file.indexOf("/"); slash !== -1; slash = file.indexOf("/", slash + 1))
        folders.add(file.slice(0, slash));
    }
    this.#files = fileSet;
    this.#folders = folders;
  }

  /** Number of candidate files. */
  get size(): number {
    return this.#files.size;
  }

  /** @returns Whether `relativePath` is a candidate file. */
  has(relativePath: string): boolean {
    return this.#files.has(relativePath);
  }

  /**
   * Wraps a walk's `omit` so that it also leaves out every entry that is
   * neither a candidate nor a folder leading to one.
   *
   * @param omit - The walk's own pruning (nested mount points), kept as is.
   * @param prefix - Where the walk's root sits below the search root (`""` for the root itself).
   * @returns The combined `omit`, taking paths relative to the walk's root.
   */
  omitting(omit: (relativePath: string) => boolean, prefix = ""): (relativePath: string) => boolean {
    return (relativePath) => {
      if (omit(relativePath)) return true;
      const key = prefix === "" ? relativePath : `${prefix}/${relativePath}`;
      return !this.#files.has(key) && !this.#folders.has(key);
    };
  }
}
