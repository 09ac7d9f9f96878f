/**
 * `loadExport`: imports the export a `use: "<module specifier>:<export name>"`
 * value names, with errors that say exactly what went wrong.
 */
import path from "node:path";
import { PluginLoadError } from "./plugin-load-error.js";
import { parseUseSpec } from "./parse-use.js";
import { isPathSpecifier, resolvePluginModule } from "./resolve-module.js";

/** Imports a module the way the calling package would: pass `(specifier) => import(specifier)` written in that package. */
export type ImportModule = (specifier: string) => Promise<unknown>;

/** Options of {@link loadExport}. */
export interface LoadExportOptions {
  /** Working directory (relative specifiers and packages are also looked up here). Default `process.cwd()`. */
  readonly cwd?: string;
  /** Folder of the config file; searched before `cwd`. */
  readonly configDir?: string;
  /**
   * What the export must be: `callable` (a function or class, the default),
   * `class`, or `any` (no check).
   */
  readonly expect?: "callable" | "class" | "any";
  /** What the plugin is for, for messages (e.g. `chat model`). */
  readonly purpose?: string;
  /**
   * The caller's `import()`: it loads what the search folders resolved, and a
   * package name found in none of them from the caller's own dependencies
   * (the kernel itself depends on nothing).
   */
  readonly importModule: ImportModule;
  /** Whose dependencies `importModule` sees, for messages, e.g. `the server`. Default `the caller`. */
  readonly importerLabel?: string;
}

/**
 * @param value - anything.
 * @returns its kind, for error messages (`a class`, `an object`, `a string`...).
 */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return isClass(value) ? "a class" : "a function";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/**
 * @param fn - anything.
 * @returns whether it is a function declared with `class`.
 */
export function isClass(fn: unknown): boolean {
  return typeof fn === "function" && /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

/**
 * Imports `"<module specifier>:<export name>"`.
 *
 * Module lookup: relative and absolute paths (and `file:` URLs) against the
 * config folder, then `cwd`; package names from the `node_modules` of the
 * config folder, then `cwd` (and their parents), then through `importModule`
 * (the caller's own dependencies).
 *
 * @param use - e.g. `./plugins/scanner.js:QuietScanner`, `@acme/plugins:createModel`, `pkg:default`
 * @param options - lookup folders, the caller's `import()` and the expected kind
 * @returns the exported value
 * @throws PluginLoadError `PLUGIN_SPEC_INVALID`, `PLUGIN_NOT_FOUND` (names the specifier and where it looked),
 *   `PLUGIN_LOAD_FAILED` (the module threw), `PLUGIN_EXPORT_MISSING` (lists the available exports),
 *   `PLUGIN_WRONG_KIND` (says what was expected and what was found)
 * @example
 * ```ts
 * const makeScanner = await loadExport("./plugins/scanner.js:makeScanner", { configDir: "/etc/deerflow", importModule: (s) => import(s) });
 * ```
 */
export async function loadExport(use: string, options: LoadExportOptions): Promise<unknown> {
  const { specifier, exportName } = parseUseSpec(use);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const searchDirs = [
    ...new Set(
      [options.configDir === undefined ? undefined : path.resolve(options.configDir), cwd].filter(
        (d): d is string => d !== undefined,
      ),
    ),
  ];
  const purpose = options.purpose === undefined ? "" : ` (${options.purpose})`;

  const notFound = (cause?: unknown): PluginLoadError =>
    new PluginLoadError(
      "PLUGIN_NOT_FOUND",
      use,
      `Cannot find plugin module "${specifier}"${purpose} named by use "${use}" (looked in ${searchDirs.join(", ")}${isPathSpecifier(specifier) ? "" : ` and ${options.importerLabel ?? "the caller"}'s dependencies`})`,
      { stage: "module", ...(cause === undefined ? {} : { cause }) },
    );
  const resolved = resolvePluginModule(specifier, searchDirs);
  if (resolved === undefined && isPathSpecifier(specifier)) throw notFound();
  let mod: Record<string, unknown>;
  try {
    // Not found in the search folders: the caller's own dependencies (e.g. "@deerflow/sandbox").
    mod = (await options.importModule(resolved?.url ?? specifier)) as Record<string, unknown>;
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    // Only a failure to find the plugin itself is "not found"; a missing dependency of the plugin is a load failure.
    if (resolved === undefined && e.code === "ERR_MODULE_NOT_FOUND" && String(e.message).includes(`'${specifier}'`))
      throw notFound(err);
    throw new PluginLoadError(
      "PLUGIN_LOAD_FAILED",
      use,
      `Plugin module "${specifier}"${purpose} failed to load: ${(err as Error).message ?? String(err)}`,
      { stage: "module", cause: err },
    );
  }

  if (!(exportName in mod)) {
    const available = Object.keys(mod).sort();
    throw new PluginLoadError(
      "PLUGIN_EXPORT_MISSING",
      use,
      `Plugin module "${specifier}"${purpose} has no export "${exportName}". Available exports: ${available.length === 0 ? "(none)" : available.join(", ")}`,
      { stage: "export" },
    );
  }
  const value = mod[exportName];
  const expect = options.expect ?? "callable";
  if (expect === "callable" && typeof value !== "function") {
    throw new PluginLoadError(
      "PLUGIN_WRONG_KIND",
      use,
      `Export "${exportName}" of "${specifier}" is ${kindOf(value)}; expected a function or class${purpose}`,
      { stage: "export" },
    );
  }
  if (expect === "class" && !isClass(value)) {
    throw new PluginLoadError(
      "PLUGIN_WRONG_KIND",
      use,
      `Export "${exportName}" of "${specifier}" is ${kindOf(value)}; expected a class${purpose}`,
      { stage: "export" },
    );
  }
  return value;
}
