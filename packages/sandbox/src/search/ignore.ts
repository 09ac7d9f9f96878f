/**
 * DeerFlow's ignore list for `listDir`, `glob` and `grep`: version-control
 * metadata, dependency and build trees, editor and OS litter, logs, temp files
 * and caches. A name on the list hides the entry and everything below it.
 * Names are matched against one path segment, case-sensitively (as Python's
 * `fnmatch` on POSIX).
 */

/** The patterns, in DeerFlow's order. Entries with `*` match any run of characters. */
export const IGNORE_PATTERNS: readonly string[] = [
  // Version control
  ".git",
  ".svn",
  ".hg",
  ".bzr",
  // Dependencies and virtual environments
  "node_modules",
  "__pycache__",
  ".venv",
  "venv",
  ".env",
  "env",
  ".tox",
  ".nox",
  ".eggs",
  "*.egg-info",
  "site-packages",
  // Build outputs
  "dist",
  "build",
  ".next",
  ".nuxt",
  ".output",
  ".turbo",
  "target",
  "out",
  // IDEs and editors
  ".idea",
  ".vscode",
  "*.swp",
  "*.swo",
  "*~",
  ".project",
  ".classpath",
  ".settings",
  // OS files
  ".DS_Store",
  "Thumbs.db",
  "desktop.ini",
  "*.lnk",
  // Logs and temp files (`.upload-*.part` are uploads in flight)
  "*.log",
  "*.tmp",
  "*.temp",
  ".upload-*.part",
  "*.bak",
  "*.cache",
  ".cache",
  "logs",
  // Coverage and tool caches
  ".coverage",
  "coverage",
  ".nyc_output",
  "htmlcov",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
];

const EXACT_NAMES = new Set(IGNORE_PATTERNS.filter((pattern) => !pattern.includes("*")));
// The wildcard entries only use `*`; one combined regex keeps the per-entry cost low.
const WILDCARD_RE = new RegExp(
  `^(?:${IGNORE_PATTERNS.filter((pattern) => pattern.includes("*"))
    .map((pattern) => pattern.split("*").map(escapeRegExp).join(".*"))
    .join("|")})$`,
  "s",
);

/**
 * True when a single file or directory name is on the ignore list.
 *
 * @param name - One path segment (no slashes).
 * @returns Whether walks skip the entry (and, for a directory, its subtree).
 * @example
 * isIgnoredName("node_modules"); // true
 * isIgnoredName("server.log");   // true
 * isIgnoredName("src");          // false
 */
export function isIgnoredName(name: string): boolean {
  return EXACT_NAMES.has(name) || WILDCARD_RE.test(name);
}

/**
 * True when any segment of a relative POSIX path is ignored. The search root
 * itself is never part of the relative path, so searching inside `build/`
 * still works.
 *
 * @param relativePath - Path relative to the search root.
 * @returns Whether some segment is on the ignore list.
 */
export function isIgnoredPath(relativePath: string): boolean {
  return relativePath.split("/").some((segment) => segment !== "" && isIgnoredName(segment));
}

/**
 * Escapes the RegExp metacharacters of a literal string.
 *
 * @param text - Literal text.
 * @returns A pattern matching exactly `text`.
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
