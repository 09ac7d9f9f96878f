/** Masking of secrets for logs: keys and passwords never appear in startup output. */

/**
 * Masks a secret, keeping at most its last 4 characters when it is long enough
 * that they reveal nothing useful.
 *
 * @param secret - API key or token
 * @returns e.g. `****wxyz`, or `****` for short values, or `(empty)`
 */
export function maskSecret(secret: string): string {
  if (secret === "") return "(empty)";
  return secret.length >= 20 ? `****${secret.slice(-4)}` : "****";
}

/**
 * Masks the password (and a username that looks like a token) of a URL such as
 * `postgres://user:pass@host/db` or `redis://:pass@host:6379`.
 *
 * @param url - connection URL
 * @returns the URL with credentials replaced by `****`; unparseable input is fully masked
 */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== "") u.password = "****";
    else if (u.username !== "" && u.username.length >= 16) u.username = "****";
    return u.toString();
  } catch {
    return "****";
  }
}
