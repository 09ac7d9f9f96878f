/** Typed errors of model creation. */

const DEERFLOW_ERROR = Symbol.for("@deerflow/error");
const MODEL_ERROR = Symbol.for("@deerflow/server/model-error");

/** Stable codes of {@link ModelError}. */
export type ModelErrorCode =
  /** No configured model has this name. */
  | "MODEL_NOT_FOUND"
  /** The entry cannot produce a model (no API key, missing model id...). */
  | "MODEL_CONFIG_INVALID"
  /** The provider or plugin threw while creating the model. */
  | "MODEL_CREATE_FAILED";

/**
 * Error thrown when a chat model cannot be created.
 *
 * @example
 * ```ts
 * try { await registry.get("gpt"); }
 * catch (err) { if (ModelError.isInstance(err) && err.code === "MODEL_NOT_FOUND") ... }
 * ```
 */
export class ModelError extends Error {
  readonly code: ModelErrorCode;
  /** Name of the model entry. */
  readonly model: string;

  /**
   * @param code - stable code
   * @param model - model name
   * @param message - message naming the entry and the problem
   * @param options - cause
   */
  constructor(code: ModelErrorCode, model: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ModelError";
    this.code = code;
    this.model = model;
    Object.defineProperty(this, DEERFLOW_ERROR, { value: true });
    Object.defineProperty(this, MODEL_ERROR, { value: true });
  }

  /** Brand check that survives duplicate module copies. */
  static isInstance(value: unknown): value is ModelError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MODEL_ERROR] === true;
  }
}
