/**
 * The signed-in user of a request, for routes that act on one's own account.
 */
import type { FastifyRequest } from "fastify";
import type { AuthenticatedAccount } from "./account-authenticator.js";
import { authError } from "./auth-error-detail.js";

/**
 * @param request - the request.
 * @returns its account.
 * @throws GatewayError `UNAUTHORIZED` (`not_authenticated`) when no user is signed in
 *   (a configured API key has no account).
 */
export function requireAccount(request: FastifyRequest): AuthenticatedAccount {
  if (request.account === null) throw authError("UNAUTHORIZED", "not_authenticated", "Not authenticated");
  return request.account;
}
