/** Typed errors of model creation. */

import { DeerflowError } from "@deerflow/kernel";

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
export class ModelError extends DeerflowError<ModelErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/server/model-error");
  override name = "ModelError";
  /** Name of the model entry. */
  readonly model: string;

  /**
   * @param code - stable code
   * @param model - model name
   * @param message - message naming the entry and the problem
   * @param options - cause
   */
  constructor(code: ModelErrorCode, model: string, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { cause: options.cause });
    this.model = model;
  }
}
