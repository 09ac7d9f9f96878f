/**
 * Session tokens: 32 random bytes, sent to the browser with an HMAC-SHA256
 * signature (`<token>.<signature>`, both base64url). The store keeps only the
 * token's SHA-256, so neither a leaked database nor a forged cookie opens a
 * session, and a cookie whose signature fails is refused without a store read.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Random bytes of a session token. */
const SESSION_TOKEN_BYTES = 32;

/** A freshly minted token: what the cookie carries and what the store keys it by. */
export interface MintedSessionToken {
  /** `<token>.<signature>`, the cookie's value. */
  readonly cookieValue: string;
  /** SHA-256 hex of the token: `SessionRecord.sessionId`. */
  readonly sessionId: string;
}

function sign(token: string, secret: string | Uint8Array): string {
  return createHmac("sha256", secret).update(token, "utf8").digest("base64url");
}

/**
 * @param token - a session token (base64url).
 * @returns the store's id of the session: SHA-256 hex of the token.
 */
export function sessionIdOf(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * @param secret - the server's signing secret.
 * @returns a new random token, signed.
 */
export function mintSessionToken(secret: string | Uint8Array): MintedSessionToken {
  const token = randomBytes(SESSION_TOKEN_BYTES).toString("base64url");
  return { cookieValue: `${token}.${sign(token, secret)}`, sessionId: sessionIdOf(token) };
}

const COOKIE_VALUE = /^([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

/**
 * Checks a cookie value's shape and signature (in constant time).
 *
 * @param cookieValue - the `access_token` cookie.
 * @param secret - the server's signing secret.
 * @returns the session id, or `undefined` when the value is malformed or its signature fails.
 */
export function verifySessionToken(cookieValue: string, secret: string | Uint8Array): string | undefined {
  const m = COOKIE_VALUE.exec(cookieValue);
  if (m === null) return undefined;
  const token = m[1] as string;
  const expected = Buffer.from(sign(token, secret), "utf8");
  const given = Buffer.from(m[2] as string, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected) ? sessionIdOf(token) : undefined;
}
