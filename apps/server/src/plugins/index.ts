/**
 * The `use: "<module>:<export>"` plugin loader: the kernel's (shared with the
 * sandbox's `loadSandboxProvider`), bound here to the server's own `import()`
 * so that a package found in neither the config folder nor the working
 * directory is loaded from the server's dependencies (e.g. `@deerflow/sandbox`).
 */
import {
  loadExport as kernelLoadExport,
  loadPlugin as kernelLoadPlugin,
  type LoadExportOptions as KernelLoadExportOptions,
  type LoadPluginOptions as KernelLoadPluginOptions,
} from "@deerflow/kernel";

export {
  PluginLoadError,
  isClass,
  isPathSpecifier,
  isUseSpec,
  kindOf,
  parseUseSpec,
  resolvePluginModule,
  type PluginLoadErrorCode,
  type PluginLoadStage,
  type ResolvedModule,
  type UseSpec,
} from "@deerflow/kernel";

/** Options of {@link loadExport}: lookup folders, the expected kind and the purpose for messages. */
export type LoadExportOptions = Omit<KernelLoadExportOptions, "importModule" | "importerLabel">;

/** Options of {@link loadPlugin}: those of {@link loadExport}, plus the constructor options and the check. */
export type LoadPluginOptions<T> = Omit<KernelLoadPluginOptions<T>, "importModule" | "importerLabel">;

const fromServer = {
  importModule: (specifier: string): Promise<unknown> => import(specifier),
  importerLabel: "the server",
} as const;

/**
 * Imports the export a `use` value names (see the kernel's `loadExport`); bare
 * package names found nowhere else come from the server's dependencies.
 *
 * @param use - e.g. `./plugins/scanner.js:QuietScanner`, `@acme/plugins:createModel`
 * @param options - lookup folders and the expected kind
 * @returns the exported value
 * @throws PluginLoadError `PLUGIN_SPEC_INVALID`, `PLUGIN_NOT_FOUND`, `PLUGIN_LOAD_FAILED`, `PLUGIN_EXPORT_MISSING`, `PLUGIN_WRONG_KIND`
 */
export function loadExport(use: string, options: LoadExportOptions = {}): Promise<unknown> {
  return kernelLoadExport(use, { ...options, ...fromServer });
}

/**
 * Loads and instantiates a plugin (see the kernel's `loadPlugin`) with the
 * server's module resolution.
 *
 * @param use - `"<module specifier>:<export name>"`
 * @param options - lookup folders, constructor/factory options and the check
 * @returns the instance
 * @throws PluginLoadError as {@link loadExport}, plus `PLUGIN_WRONG_KIND` / `PLUGIN_LOAD_FAILED` for the instance
 * @example
 * ```ts
 * const scanner = await loadPlugin("./plugins/scanner.js:QuietScanner", {
 *   configDir, purpose: "skill scanner", shape: "an object with id and scanDirectory(dir)",
 *   check: (v): v is SkillScanner => typeof (v as SkillScanner)?.scanDirectory === "function",
 * });
 * ```
 */
export function loadPlugin<T>(use: string, options: LoadPluginOptions<T>): Promise<T> {
  return kernelLoadPlugin(use, { ...options, ...fromServer });
}
