/**
 * Typed errors of the `use:` plugin loader.
 */

const DEERFLOW_ERROR = Symbol.for("@deerflow/error");
const PLUGIN_ERROR = Symbol.for("@deerflow/server/plugin-error");

/** Stable codes of {@link PluginLoadError}. */
export type PluginLoadErrorCode =
  /** `use` is not `"<module specifier>:<export name>"`. */
  | "PLUGIN_SPEC_INVALID"
  /** The module cannot be found from the config folder, the working directory or the server. */
  | "PLUGIN_NOT_FOUND"
  /** The module was found but threw while loading. */
  | "PLUGIN_LOAD_FAILED"
  /** The module has no such export (the message lists the ones it has). */
  | "PLUGIN_EXPORT_MISSING"
  /** The export (or what it produced) is not the expected kind of thing. */
  | "PLUGIN_WRONG_KIND";

/**
 * Error thrown by {@link loadExport} and {@link loadPlugin}; the message names
 * the `use` value, what was expected and what was found.
 *
 * @example
 * ```ts
 * try { await loadExport("./plugins/x.js:makeThing", { cwd }); }
 * catch (err) { if (PluginLoadError.isInstance(err) && err.code === "PLUGIN_EXPORT_MISSING") log(err.message); }
 * ```
 */
export class PluginLoadError extends Error {
  /** Stable machine-readable code. */
  readonly code: PluginLoadErrorCode;
  /** The `use` value at fault. */
  readonly use: string;

  /**
   * @param code - stable code
   * @param use - the `use` value
   * @param message - message naming the problem
   * @param options - cause
   */
  constructor(code: PluginLoadErrorCode, use: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PluginLoadError";
    this.code = code;
    this.use = use;
    Object.defineProperty(this, DEERFLOW_ERROR, { value: true });
    Object.defineProperty(this, PLUGIN_ERROR, { value: true });
  }

  /** Brand check that survives duplicate module copies. */
  static isInstance(value: unknown): value is PluginLoadError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[PLUGIN_ERROR] === true;
  }
}
