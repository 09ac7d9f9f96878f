/**
 * The OIDC state cookie: what the login step must hand to the callback step
 * (state, nonce, PKCE verifier, where to land, remember-me) kept in the browser
 * rather than on the server, so any instance behind a load balancer can finish a
 * login another one started.
 *
 * The value is `base64url(json).base64url(hmac-sha256)`: HttpOnly, SameSite=Lax
 * (the IdP's redirect back is a top-level GET), scoped to the provider's callback
 * path and valid {@link OIDC_STATE_MAX_AGE_SECONDS}. Its expiry is checked from the
 * signed issue time, not only the cookie's Max-Age, which a client controls.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** Cookie name prefix; the provider id follows (`df_oidc_state_<provider>`), as DeerFlow. */
const OIDC_STATE_COOKIE_PREFIX = "df_oidc_state_";

/** Lifetime of a login attempt: 5 minutes, as DeerFlow. */
export const OIDC_STATE_MAX_AGE_SECONDS = 300;

/** What a login attempt carries from the authorization redirect to the callback. */
export interface OidcLoginState {
  /** Provider id the attempt was started for. */
  readonly provider: string;
  /** The `state` sent to the provider, compared with the callback's. */
  readonly state: string;
  /** The `nonce` sent to the provider, compared with the id_token's. */
  readonly nonce: string;
  /** PKCE code verifier (its S256 challenge went to the provider). */
  readonly codeVerifier: string;
  /** Same-site path to land on after login. */
  readonly nextPath: string;
  /** Persistent session (remember me) or a browser-session cookie. */
  readonly rememberMe: boolean;
  /** Issue time in epoch seconds. */
  readonly issuedAt: number;
}

/** The cookie name of a provider's login attempt. */
export function oidcStateCookieName(provider: string): string {
  return `${OIDC_STATE_COOKIE_PREFIX}${provider}`;
}

/**
 * The provider's callback path, also the state cookie's path (only the callback ever receives it).
 *
 * @param authPrefix - the auth routes' prefix (`/api/v1/auth`).
 */
export function oidcStateCookiePath(authPrefix: string, provider: string): string {
  return `${authPrefix}/callback/${provider}`;
}

function mac(key: Uint8Array, payload: string): Buffer {
  return createHmac("sha256", key).update(payload).digest();
}

/**
 * Derives the state cookie's own HMAC key from the server secret, so a value
 * signed for another purpose with the same secret (a session cookie) can never
 * pass as a state cookie, nor the reverse.
 */
export function deriveOidcStateKey(secret: string | Uint8Array): Uint8Array {
  return createHmac("sha256", secret).update("deerflow/oidc-state/v1").digest();
}

/** Signs a login state into a cookie value. */
export function signOidcState(key: Uint8Array, state: OidcLoginState): string {
  const payload = Buffer.from(JSON.stringify(state), "utf8").toString("base64url");
  return `${payload}.${mac(key, payload).toString("base64url")}`;
}

function isLoginState(value: unknown): value is OidcLoginState {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v["provider"] === "string" &&
    typeof v["state"] === "string" &&
    typeof v["nonce"] === "string" &&
    typeof v["codeVerifier"] === "string" &&
    typeof v["nextPath"] === "string" &&
    typeof v["rememberMe"] === "boolean" &&
    typeof v["issuedAt"] === "number"
  );
}

/**
 * The login state of a cookie value, or `undefined` when it is malformed, its
 * signature does not verify, it is older than {@link OIDC_STATE_MAX_AGE_SECONDS}
 * (or issued in the future), or it belongs to another provider.
 *
 * @param now - epoch milliseconds (injected in tests).
 */
export function verifyOidcState(
  key: Uint8Array,
  value: string | undefined,
  provider: string,
  now: number = Date.now(),
): OidcLoginState | undefined {
  if (value === undefined || value.length > 8192) return undefined;
  const dot = value.indexOf(".");
  if (dot <= 0) return undefined;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), "base64url");
  const want = mac(key, payload);
  if (given.length !== want.length || !timingSafeEqual(given, want)) return undefined;
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!isLoginState(state) || state.provider !== provider) return undefined;
  const age = now / 1000 - state.issuedAt;
  // A minute of clock skew between instances is tolerated for the issue time.
  if (age > OIDC_STATE_MAX_AGE_SECONDS || age < -60) return undefined;
  return state;
}
