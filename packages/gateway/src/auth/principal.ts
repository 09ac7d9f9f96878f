/**
 * Who is calling: set on every request by the authentication hook and read by
 * routes (`request.principal`).
 */

/** The authenticated caller of a request. */
export interface Principal {
  /** Storage owner of the caller's threads and skills (`default` without authentication). */
  readonly userId: string;
  /** May manage skills (admin-only routes). */
  readonly admin: boolean;
  /** False when authentication is off and every caller is the default admin. */
  readonly authenticated: boolean;
  /**
   * The caller's role for authorization (`authorization:` roles): `admin` or
   * `user` for accounts, or a role named by configuration. Absent means
   * `admin` when {@link Principal.admin} is set, else `user`.
   */
  readonly role?: string;
}

/** The role of a principal: its own, else `admin` or `user` by its admin right. */
export function roleOf(principal: Principal): string {
  return principal.role ?? (principal.admin ? "admin" : "user");
}

/** User id used when authentication is off or a key names no user. */
export const DEFAULT_USER_ID = "default";

/** The caller of every request when authentication is off: admin user `default`. */
export const ANONYMOUS_ADMIN: Principal = Object.freeze({ userId: DEFAULT_USER_ID, admin: true, authenticated: false });

declare module "fastify" {
  interface FastifyRequest {
    /** The caller, set by the gateway's authentication hook before any route code runs. */
    principal: Principal;
  }
}
