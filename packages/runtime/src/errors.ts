/**
 * Typed errors for `@deerflow/runtime`.
 *
 * Every error thrown by this package is a {@link RuntimeError} with a stable
 * {@link RuntimeErrorCode}; HTTP layers map codes to statuses, never message text.
 * The brand is a registry symbol shared by all `@deerflow/*` packages, so
 * {@link isDeerflowError} works across package copies where `instanceof` does not.
 *
 * @example
 * ```ts
 * try { await manager.create({ threadId, assistantId: "agent", multitaskStrategy: "reject" }); }
 * catch (err) {
 *   if (RuntimeError.isInstance(err) && err.code === "THREAD_BUSY") reply.code(409);
 * }
 * ```
 */

import { DeerflowError } from "@deerflow/kernel";

export { isDeerflowError } from "@deerflow/kernel";

/**
 * Stable error codes of this package.
 *
 * - `RUN_NOT_FOUND` / `THREAD_NOT_FOUND` / `ASSISTANT_NOT_FOUND`: no such record or graph (HTTP 404).
 * - `THREAD_EXISTS` / `ASSISTANT_EXISTS`: creating a thread or assistant whose id is taken (409).
 * - `THREAD_BUSY`: the thread has an active run and the strategy is `reject`, or the
 *   operation needs an idle thread (409).
 * - `NOT_CANCELLABLE`: the run already finished with another status (409).
 * - `INVALID_ARGUMENT`: a caller-supplied value is malformed, e.g. an unknown stream
 *   mode or a bad event id (400/422).
 * - `CONFIG_INVALID`: a component was constructed with bad options.
 * - `STORE_UNAVAILABLE` / `BRIDGE_UNAVAILABLE`: the backing service failed after retries (503).
 * - `OWNERSHIP_LOST`: this instance lost the lease of a run it was executing.
 * - `SHUTTING_DOWN`: the manager no longer admits runs (503).
 * - `CLOSED`: the component was closed.
 * - `USER_NOT_FOUND`: no such user in the account store (404).
 * - `EMAIL_EXISTS`: another user has this email (409).
 * - `OAUTH_IDENTITY_EXISTS`: another user has this OIDC provider and subject (409).
 * - `ALREADY_INITIALIZED`: the first admin exists already (409).
 */
export type RuntimeErrorCode =
  | "RUN_NOT_FOUND"
  | "THREAD_NOT_FOUND"
  | "ASSISTANT_NOT_FOUND"
  | "THREAD_EXISTS"
  | "ASSISTANT_EXISTS"
  | "THREAD_BUSY"
  | "NOT_CANCELLABLE"
  | "INVALID_ARGUMENT"
  | "CONFIG_INVALID"
  | "STORE_UNAVAILABLE"
  | "BRIDGE_UNAVAILABLE"
  | "OWNERSHIP_LOST"
  | "SHUTTING_DOWN"
  | "CLOSED"
  | "USER_NOT_FOUND"
  | "EMAIL_EXISTS"
  | "OAUTH_IDENTITY_EXISTS"
  | "ALREADY_INITIALIZED";

/** Base class of every error thrown by `@deerflow/runtime` (the file header says what it carries). */
export class RuntimeError extends DeerflowError<RuntimeErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/runtime/error");
  override name = "RuntimeError";
}
