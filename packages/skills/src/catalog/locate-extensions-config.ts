import fs from "node:fs/promises";
import path from "node:path";
import { SkillsError } from "../errors.js";

/** The environment variable naming the extensions config file (DeerFlow's name). */
export const EXTENSIONS_CONFIG_PATH_ENV = "DEER_FLOW_EXTENSIONS_CONFIG_PATH";

/**
 * File names looked for in each search folder: DeerFlow's `extensions_config.json`,
 * then its legacy name `mcp_config.json`. Every folder is searched for the
 * first name before any folder is searched for the second, as DeerFlow does.
 */
export const EXTENSIONS_CONFIG_FILE_NAMES = ["extensions_config.json", "mcp_config.json"] as const;

/**
 * Where a located extensions config came from: an explicit path (a CLI flag,
 * a config key), {@link EXTENSIONS_CONFIG_PATH_ENV}, the folder search, the
 * caller's fallback, or nowhere.
 */
export type ExtensionsConfigSource = "explicit" | "environment" | "search" | "default" | "none";

/** An explicitly chosen extensions config file. */
export interface ExplicitExtensionsConfig {
  /** The file, relative to `cwd`. An empty string counts as not given (as in DeerFlow). */
  readonly path: string;
  /** How the user gave it, for the not-found message (e.g. `` `--extensions-config` ``). */
  readonly label: string;
  /**
   * Accept a file that does not exist yet. A server whose configured path is
   * where the first toggle creates the file sets this; a command that only
   * reads keeps the default (`false`): a missing file is an error.
   */
  readonly mayBeMissing?: boolean;
}

/** Options of {@link locateExtensionsConfig}. */
export interface LocateExtensionsConfigOptions {
  /** Wins over everything else. */
  readonly explicit?: ExplicitExtensionsConfig | undefined;
  /** Environment holding {@link EXTENSIONS_CONFIG_PATH_ENV} (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Folders searched, in order, when neither an explicit path nor the variable is given. Repeats are searched once. */
  readonly searchDirs: readonly string[];
  /** Returned (with `source: "default"`) when nothing is found: where a writer would create the file. */
  readonly fallback?: string;
  /** Folder relative paths resolve against (default `process.cwd()`). */
  readonly cwd?: string;
}

/** The result of {@link locateExtensionsConfig}. */
export interface ExtensionsConfigLocation {
  /** Absolute path of the file to use; `undefined` when none was found and there is no fallback (every skill enabled). */
  readonly path: string | undefined;
  readonly source: ExtensionsConfigSource;
  /** Whether `path` is an existing file. */
  readonly exists: boolean;
  /** The search candidates checked, in order (empty when an explicit path or the variable decided). */
  readonly searched: readonly string[];
}

/**
 * Finds `extensions_config.json` the way DeerFlow does: an explicit path, then
 * {@link EXTENSIONS_CONFIG_PATH_ENV}, then `extensions_config.json` in each of
 * `searchDirs`, then `mcp_config.json` in each of them. An explicit path or the
 * variable naming a missing file is an error; a missing search candidate is
 * skipped. A folder is never accepted as the file.
 *
 * @param options - Explicit path, environment, search folders and fallback.
 * @returns The file to read (or the fallback, or nothing) and how it was chosen.
 * @throws SkillsError `CONFIG_NOT_FOUND` naming the path when the explicit path (unless `mayBeMissing`) or the variable names no file.
 * @example
 * ```ts
 * const location = await locateExtensionsConfig({ searchDirs: [process.cwd(), path.dirname(path.resolve("skills"))] });
 * const catalog = new SkillCatalog({ root: "skills", ...(location.path ? { extensionsConfigPath: location.path } : {}) });
 * ```
 */
export async function locateExtensionsConfig(
  options: LocateExtensionsConfigOptions,
): Promise<ExtensionsConfigLocation> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const explicit = options.explicit;
  if (explicit !== undefined && explicit.path !== "") {
    const file = path.resolve(cwd, explicit.path);
    const exists = await requiredFile(file, explicit.label, explicit.mayBeMissing === true);
    return { path: file, source: "explicit", exists, searched: [] };
  }
  const fromEnv = env[EXTENSIONS_CONFIG_PATH_ENV];
  if (fromEnv !== undefined && fromEnv !== "") {
    const file = path.resolve(cwd, fromEnv);
    await requiredFile(file, `environment variable \`${EXTENSIONS_CONFIG_PATH_ENV}\``, false);
    return { path: file, source: "environment", exists: true, searched: [] };
  }
  const dirs = [...new Set(options.searchDirs.map((d) => path.resolve(cwd, d)))];
  const searched: string[] = [];
  for (const name of EXTENSIONS_CONFIG_FILE_NAMES) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      searched.push(file);
      if (await isExistingFile(file)) return { path: file, source: "search", exists: true, searched };
    }
  }
  if (options.fallback !== undefined) {
    const file = path.resolve(cwd, options.fallback);
    return { path: file, source: "default", exists: await isExistingFile(file), searched };
  }
  return { path: undefined, source: "none", exists: false, searched };
}

async function isExistingFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    // Unreadable counts as absent: search candidates are optional.
    return false;
  }
}

/** Checks a file the user named; returns whether it exists. */
async function requiredFile(file: string, label: string, mayBeMissing: boolean): Promise<boolean> {
  let isFile: boolean;
  try {
    isFile = (await fs.stat(file)).isFile();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      if (mayBeMissing) return false;
      throw new SkillsError("CONFIG_NOT_FOUND", `Extensions config file specified by ${label} not found at ${file}`, {
        cause: err,
      });
    }
    throw new SkillsError(
      "CONFIG_NOT_FOUND",
      `Extensions config file specified by ${label} cannot be read at ${file}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  if (!isFile)
    throw new SkillsError("CONFIG_NOT_FOUND", `Extensions config file specified by ${label} is not a file: ${file}`);
  return true;
}
