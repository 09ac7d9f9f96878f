/**
 * `loadPlugin`: loads a `use:` export and turns it into an instance — a class
 * is constructed with the options, a function is called with them (and
 * awaited) — then checks that the result is what the extension point needs.
 */
import { PluginLoadError } from "./plugin-load-error.js";
import { isClass, kindOf, loadExport, type LoadExportOptions } from "./load-export.js";

/** Options of {@link loadPlugin}. */
export interface LoadPluginOptions<T> extends Omit<LoadExportOptions, "expect"> {
  /** Passed to the constructor or factory; `{}` when absent. */
  readonly options?: unknown;
  /** What the plugin must produce, e.g. `skill scanner`. */
  readonly purpose: string;
  /** Checks the produced value. */
  readonly check: (value: unknown) => value is T;
  /** Shown when the check fails, e.g. `an object with id and scanDirectory(dir)`. */
  readonly shape: string;
}

/**
 * Loads and instantiates a plugin.
 *
 * @param use - `"<module specifier>:<export name>"`
 * @param options - lookup folders, the caller's `import()`, constructor/factory options and the check
 * @returns the instance
 * @throws PluginLoadError as {@link loadExport}, plus `PLUGIN_WRONG_KIND` when the result fails the check
 *   and `PLUGIN_LOAD_FAILED` when the constructor or factory throws (both at stage `instance`)
 * @example
 * ```ts
 * const scanner = await loadPlugin("./plugins/scanner.js:QuietScanner", {
 *   configDir, importModule: (s) => import(s), purpose: "skill scanner", shape: "an object with id and scanDirectory(dir)",
 *   check: (v): v is SkillScanner => typeof (v as SkillScanner)?.scanDirectory === "function",
 * });
 * ```
 */
export async function loadPlugin<T>(use: string, options: LoadPluginOptions<T>): Promise<T> {
  const exported = await loadExport(use, { ...options, expect: "callable" });
  let instance: unknown;
  try {
    instance = isClass(exported)
      ? new (exported as new (o: unknown) => unknown)(options.options ?? {})
      : await (exported as (o: unknown) => unknown)(options.options ?? {});
  } catch (err) {
    throw new PluginLoadError(
      "PLUGIN_LOAD_FAILED",
      use,
      `Plugin "${use}" (${options.purpose}) threw while being created: ${(err as Error).message ?? String(err)}`,
      {
        stage: "instance",
        cause: err,
      },
    );
  }
  if (!options.check(instance)) {
    throw new PluginLoadError(
      "PLUGIN_WRONG_KIND",
      use,
      `Plugin "${use}" produced ${kindOf(instance)}, not a ${options.purpose}: expected ${options.shape}`,
      { stage: "instance" },
    );
  }
  return instance;
}
