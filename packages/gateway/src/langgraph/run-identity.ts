/**
 * Who a run runs as: the authenticated caller, never the request body.
 *
 * Graphs read a run's user from `config.configurable.user_id`, the key the
 * LangGraph Platform injects it under (the DeerFlow server's agent picks the
 * user's sandbox and files with it). The gateway writes that key from
 * `request.principal` after validation, over the body's and the assistant's
 * configs, so a client cannot point a run at another user's folders. A body
 * that names a different user is refused rather than silently corrected: the
 * client learns that its assumption is wrong.
 */
import type { Principal } from "../auth/principal.js";
import { GatewayError } from "../errors.js";

/** The `configurable` (and `context`) key holding a run's user id. */
export const RUN_USER_ID_KEY = "user_id";

/** The members of a run body that can name a user. */
export interface RunIdentityClaims {
  readonly config?: { readonly configurable?: Readonly<Record<string, unknown>> | null | undefined } | null | undefined;
  readonly context?: Readonly<Record<string, unknown>> | null | undefined;
}

/**
 * The user a run runs as: the caller's. A body may repeat it in
 * `config.configurable.user_id` or `context.user_id` (null means absent).
 *
 * @param principal - the authenticated caller (`request.principal`).
 * @param body - the run body.
 * @returns `principal.userId`.
 * @throws GatewayError `FORBIDDEN` (403) when the body names any other user.
 * @example
 * ```ts
 * runUserIdOf({ userId: "alice", admin: false, authenticated: true }, { config: { configurable: { user_id: "bob" } } }); // throws FORBIDDEN
 * ```
 */
export function runUserIdOf(principal: Principal, body: RunIdentityClaims): string {
  const claims: ReadonlyArray<readonly [string, unknown]> = [
    [`config.configurable.${RUN_USER_ID_KEY}`, body.config?.configurable?.[RUN_USER_ID_KEY]],
    [`context.${RUN_USER_ID_KEY}`, body.context?.[RUN_USER_ID_KEY]],
  ];
  for (const [field, claimed] of claims) {
    if (claimed !== undefined && claimed !== null && claimed !== principal.userId) {
      throw new GatewayError(
        "FORBIDDEN",
        `${field} names another user: a run runs as the authenticated caller (omit it, or send your own user id).`,
      );
    }
  }
  return principal.userId;
}
