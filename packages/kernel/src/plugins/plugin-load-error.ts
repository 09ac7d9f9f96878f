/**
 * The typed error of the `use:` plugin loader.
 */
import { DeerflowError } from "../errors/deerflow-error.js";

/** Stable codes of {@link PluginLoadError}. */
export type PluginLoadErrorCode =
  /** `use` is not `"<module specifier>:<export name>"`. */
  | "PLUGIN_SPEC_INVALID"
  /** The module cannot be found from the config folder, the working directory or the caller. */
  | "PLUGIN_NOT_FOUND"
  /** The module was found but threw while loading, or the constructor / factory threw. */
  | "PLUGIN_LOAD_FAILED"
  /** The module has no such export (the message lists the ones it has). */
  | "PLUGIN_EXPORT_MISSING"
  /** The export (or what it produced) is not the expected kind of thing. */
  | "PLUGIN_WRONG_KIND";

/**
 * Which step failed: parsing `use`, importing the module, reading the export,
 * or creating and checking the instance. Lets a caller that keeps its own error
 * codes and texts (the sandbox's `loadSandboxProvider`) tell a throwing
 * constructor from a module that failed to load.
 */
export type PluginLoadStage = "spec" | "module" | "export" | "instance";

/**
 * Error thrown by {@link loadExport} and {@link loadPlugin}; the message names
 * the `use` value, what was expected and what was found.
 *
 * @example
 * ```ts
 * try { await loadExport("./plugins/x.js:makeThing", { cwd, importModule: (s) => import(s) }); }
 * catch (err) { if (PluginLoadError.isInstance(err) && err.code === "PLUGIN_EXPORT_MISSING") log(err.message); }
 * ```
 */
export class PluginLoadError extends DeerflowError<PluginLoadErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/plugin-error");
  override name = "PluginLoadError";
  /** The `use` value at fault. */
  readonly use: string;
  /** The step that failed. */
  readonly stage: PluginLoadStage;

  /**
   * @param code - stable code.
   * @param use - the `use` value.
   * @param message - message naming the problem.
   * @param options - the failed step and the cause.
   */
  constructor(
    code: PluginLoadErrorCode,
    use: string,
    message: string,
    options: { readonly stage: PluginLoadStage; readonly cause?: unknown },
  ) {
    super(code, message, { cause: options.cause });
    this.use = use;
    this.stage = options.stage;
  }
}
