/**
 * The `next` target of an SSO login: where the browser lands afterwards.
 *
 * Only a same-site path is accepted, so `/api/v1/auth/oauth/<p>?next=...` cannot
 * be used as an open redirect (a phishing link through our domain).
 */

/** Longest `next` kept (it travels in the state cookie). */
export const MAX_NEXT_PATH_LENGTH = 1024;

/**
 * The path of a `next` parameter when it is a plain same-site path, else `undefined`.
 *
 * Refused: anything not starting with `/`, protocol-relative `//host`, backslashes
 * (browsers read `/\host` as `//host`), `:` anywhere (schemes, `/javascript:`),
 * control characters and whitespace (a browser strips tabs and newlines inside a URL,
 * so `/\t/host` would become `//host`), and paths over {@link MAX_NEXT_PATH_LENGTH}.
 *
 * @param next - the raw query value.
 * @example
 * ```ts
 * safeNextPath("/chat/abc?x=1"); // "/chat/abc?x=1"
 * safeNextPath("//evil.example"); // undefined
 * ```
 */
export function safeNextPath(next: string | undefined): string | undefined {
  if (next === undefined || next.length === 0 || next.length > MAX_NEXT_PATH_LENGTH) return undefined;
  if (!next.startsWith("/") || next.startsWith("//")) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\\:\s\u0000-\u001f\u007f]/.test(next)) return undefined;
  return next;
}
