/**
 * Typed errors for `@deerflow/subagents`.
 *
 * Every error thrown by this package is a {@link SubagentError} with a stable
 * {@link SubagentErrorCode}. Callers switch on `code`, never on message text.
 * The brand is a registry symbol shared by all `@deerflow/*` packages, so
 * {@link isDeerflowError} works across package copies and realms where
 * `instanceof` does not.
 *
 * @example
 * ```ts
 * try { registry.get("researcher"); }
 * catch (err) {
 *   if (SubagentError.isInstance(err) && err.code === "UNKNOWN_SUBAGENT") { ... }
 * }
 * ```
 */

import { DeerflowError } from "@deerflow/kernel";

export { isDeerflowError } from "@deerflow/kernel";

/** Stable error codes of this package. */
export type SubagentErrorCode = "UNKNOWN_SUBAGENT" | "CONFIG_INVALID" | "MODEL_UNAVAILABLE";

/** Base class of every error thrown by `@deerflow/subagents` (the file header says what it carries). */
export class SubagentError extends DeerflowError<SubagentErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/subagents/error");
  override name = "SubagentError";
}
