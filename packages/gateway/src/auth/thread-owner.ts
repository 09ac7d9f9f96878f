/**
 * Who owns a thread, and who may see it.
 *
 * A thread created by an authenticated caller carries `metadata.owner` = the
 * caller's user id (the LangGraph Platform's custom-auth convention, so SDK
 * clients filtering on it keep working). The server writes it; a request body
 * can only repeat it. A non-admin caller sees its own threads only; an admin
 * sees every thread, including those without an owner (created while
 * authentication was off, or by the runtime directly). With authentication
 * off every caller is the anonymous admin `default`: no owner is written and
 * `owner` is ordinary metadata the client may set, as before authentication
 * existed (an operator who turns authentication on later finds such threads
 * owned by whoever their metadata names, as if an admin had assigned them).
 */
import { GatewayError } from "../errors.js";
import type { Principal } from "./principal.js";

/** The thread metadata key naming the thread's owner. */
export const THREAD_OWNER_KEY = "owner";

/**
 * Whether `principal` may see a thread with this metadata: an admin always,
 * anyone else only when `metadata.owner` is their user id.
 *
 * @example
 * ```ts
 * mayAccessThread({ userId: "bob", admin: false, authenticated: true }, { owner: "alice" }); // false
 * ```
 */
export function mayAccessThread(principal: Principal, metadata: Readonly<Record<string, unknown>>): boolean {
  return principal.admin || metadata[THREAD_OWNER_KEY] === principal.userId;
}

/**
 * The owner metadata of a thread `principal` creates: `{ owner: userId }` for
 * an authenticated caller, nothing when authentication is off.
 */
export function ownerMetadataOf(principal: Principal): Record<string, string> {
  return principal.authenticated ? { [THREAD_OWNER_KEY]: principal.userId } : {};
}

/**
 * Refuses an authenticated caller's body whose `metadata.owner` would set or
 * change a thread's owner (admins included: ownership follows who created the
 * thread). With authentication off the key is free.
 *
 * @param principal - the caller.
 * @param metadata - the body's metadata.
 * @param owner - the owner the thread has (or gets): the only value the body may repeat.
 * @throws GatewayError `FORBIDDEN` (403) when `metadata.owner` is present and differs.
 */
export function checkOwnerClaim(
  principal: Principal,
  metadata: Readonly<Record<string, unknown>> | null | undefined,
  owner: unknown,
): void {
  if (!principal.authenticated || metadata == null || !Object.hasOwn(metadata, THREAD_OWNER_KEY)) return;
  if (metadata[THREAD_OWNER_KEY] === owner && owner !== undefined) return;
  throw new GatewayError(
    "FORBIDDEN",
    `metadata.${THREAD_OWNER_KEY} is set by the server to the authenticated user: omit it (or repeat the thread's owner).`,
  );
}

/**
 * A thread search's metadata filter for `principal`: an admin's as sent; a
 * user's ANDed with `owner = userId`. A user's filter naming another owner
 * matches nothing (null), so it can narrow the search but never widen it.
 */
export function ownerScopedFilter(
  principal: Principal,
  metadata: Readonly<Record<string, unknown>> | null | undefined,
): Record<string, unknown> | undefined | null {
  if (principal.admin) return metadata == null ? undefined : { ...metadata };
  if (metadata != null && Object.hasOwn(metadata, THREAD_OWNER_KEY) && metadata[THREAD_OWNER_KEY] !== principal.userId)
    return null;
  return { ...metadata, [THREAD_OWNER_KEY]: principal.userId };
}
