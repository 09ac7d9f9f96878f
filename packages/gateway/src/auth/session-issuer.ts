/**
 * What signs a user in: the interface local login, registration, the first
 * admin's initialisation, password change and OIDC callbacks share.
 */
import type { UserRecord } from "@deerflow/runtime";
import type { FastifyReply, FastifyRequest } from "fastify";

/** Options of {@link SessionIssuer.issue}. */
export interface IssueSessionOptions {
  /** A persistent cookie for the session's lifetime (else a browser-session cookie). */
  readonly rememberMe: boolean;
}

/**
 * Starts a session for a user who has just proven who they are.
 *
 * @example
 * ```ts
 * // in an OIDC callback, once the identity provider vouched for `user`:
 * await issuer.issue(request, reply, user, { rememberMe: true });
 * return reply.redirect("/");
 * ```
 */
export interface SessionIssuer {
  /**
   * Stores a new session for `user` and sets the `access_token`,
   * `deerflow_session_persistent` and `csrf_token` cookies on `reply`.
   * A disabled user gets no session (`FORBIDDEN`).
   */
  issue(request: FastifyRequest, reply: FastifyReply, user: UserRecord, options: IssueSessionOptions): Promise<void>;
}
