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
 * - `MODEL_NOT_AUTHORIZED`: `authorization:` allows the run's role no configured model.
 * - `AGENT_NAME_INVALID`: a custom agent's name does not match `^[A-Za-z0-9-]+$` (or is a path, a dot name...).
 * - `AGENT_NOT_FOUND`: no custom agent of that name for the user (a run's `agent_name`, a store read).
 * - `AGENT_EXISTS`: creating a custom agent whose name the user already has.
 * - `AGENT_CONFIG_INVALID`: a custom agent's `config.yaml` (or an update) breaks `AgentConfig`'s rules.
 * - `AGENT_LEGACY_ONLY`: the agent exists only in the read-only legacy layout (`{dataDir}/agents/{name}`).
 * - `AGENT_MEMORY_ONLY`: the agent's folder holds memory data but no `config.yaml` (kept, not deleted).
 */
export type AgentErrorCode =
  | "THREAD_ID_REQUIRED"
  | "CONFIG_INVALID"
  | "MODEL_UNAVAILABLE"
  | "MODEL_NOT_AUTHORIZED"
  | "AGENT_NAME_INVALID"
  | "AGENT_NOT_FOUND"
  | "AGENT_EXISTS"
  | "AGENT_CONFIG_INVALID"
  | "AGENT_LEGACY_ONLY"
  | "AGENT_MEMORY_ONLY";

export { isDeerflowError } from "@deerflow/kernel";

/** Base class of every error thrown by `@deerflow/agent`. */
export class AgentError extends DeerflowError<AgentErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/agent/error");
  override name = "AgentError";
}
