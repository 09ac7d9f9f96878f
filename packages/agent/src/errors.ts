/**
 * Typed errors for `@deerflow/agent`.
 *
 * Every error thrown by this package is an {@link AgentError} with a stable
 * {@link AgentErrorCode}; callers switch on `code`, never on message text. The
 * brand is a registry symbol shared by all `@deerflow/*` packages, so
 * {@link isDeerflowError} works across package copies where `instanceof` does not.
 *
 * @example
 * ```ts
 * try { await agent.invoke(input, { configurable: {} }); }
 * catch (err) {
 *   if (AgentError.isInstance(err) && err.code === "THREAD_ID_REQUIRED") { ... }
 * }
 * ```
 */
import { DeerflowError } from "@deerflow/kernel";

/**
 * Stable error codes of this package.
 *
 * - `THREAD_ID_REQUIRED`: a run of an agent with a sandbox has no `configurable.thread_id`
 *   (the sandbox is per thread).
 * - `CONFIG_INVALID`: `createLeadAgent` options that cannot work (e.g. the default model is unknown).
 * - `MODEL_UNAVAILABLE`: a model's circuit breaker is open (LLM error handling answers with its message).
 */
export type AgentErrorCode = "THREAD_ID_REQUIRED" | "CONFIG_INVALID" | "MODEL_UNAVAILABLE";

export { isDeerflowError } from "@deerflow/kernel";

/** Base class of every error thrown by `@deerflow/agent`. */
export class AgentError extends DeerflowError<AgentErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/agent/error");
  override name = "AgentError";
}
