/**
 * Whose items the store routes touch: every namespace a client names is
 * placed under `["user-store", <caller's user label>]` before it reaches the
 * store, and that prefix is taken off every namespace answered, so a client
 * sees only its own items and never the prefix. The user id comes from
 * authentication only (the API key's `userId`; `default` without auth).
 *
 * Other users of the same store (`@deerflow/memory`, graphs through
 * `getStore()`) keep their namespaces outside `user-store`: the store routes
 * can neither read nor change them.
 */

/** First label of every namespace the store routes use. */
export const STORE_ROUTES_ROOT = "user-store";

/**
 * The user's label: characters outside `[A-Za-z0-9-]` (user ids may hold `.` and `_`, which stores refuse
 * in labels or read as `LIKE` wildcards) become `~` and two hex digits, so the mapping is one to one.
 *
 * @param userId - the authenticated user id
 */
export function userLabel(userId: string): string {
  return userId.replace(/[^A-Za-z0-9-]/g, (c) => `~${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** The caller's prefix: `["user-store", <user label>]`. */
export function ownerPrefix(userId: string): string[] {
  return [STORE_ROUTES_ROOT, userLabel(userId)];
}

/**
 * A stored namespace as the client sees it, or `undefined` when it is not under the caller's prefix
 * (never answered).
 */
export function clientNamespace(owner: readonly string[], stored: readonly string[]): string[] | undefined {
  if (stored.length < owner.length || owner.some((label, i) => stored[i] !== label)) return undefined;
  return stored.slice(owner.length);
}
