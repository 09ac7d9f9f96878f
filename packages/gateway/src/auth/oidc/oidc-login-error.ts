/**
 * Why an SSO login failed after the provider redirected back. These never
 * become a JSON error: the callback is a browser navigation, so each is turned
 * into a redirect to the console's login page with a short error code
 * ({@link OidcLoginError.redirectCode}), as DeerFlow does.
 */
import { DeerflowError } from "@deerflow/kernel";

/**
 * - `PROVIDER_ERROR`: the provider answered the authorization with `error=...` (the user declined...).
 * - `AUTHENTICATION_FAILED`: the code exchange or the id_token validation failed
 *   (signature, issuer, audience, expiry, nonce, PKCE).
 * - `EMAIL_NOT_VERIFIED`, `EMAIL_MISSING`, `EMAIL_DOMAIN_NOT_ALLOWED`,
 *   `SIGNUP_DISABLED`, `USER_DISABLED`: the provisioning rules refused the identity.
 * - `ACCOUNT_EXISTS`: an account that is not linked to this identity already owns the email.
 */
export type OidcLoginErrorCode =
  | "PROVIDER_ERROR"
  | "AUTHENTICATION_FAILED"
  | "EMAIL_NOT_VERIFIED"
  | "EMAIL_MISSING"
  | "EMAIL_DOMAIN_NOT_ALLOWED"
  | "SIGNUP_DISABLED"
  | "USER_DISABLED"
  | "ACCOUNT_EXISTS";

/** The `error` query parameter of the login page for a failure (DeerFlow's values). */
export type OidcRedirectErrorCode = "sso_failed" | "sso_not_allowed" | "sso_account_exists";

const REDIRECT_CODE: Readonly<Record<OidcLoginErrorCode, OidcRedirectErrorCode>> = {
  PROVIDER_ERROR: "sso_failed",
  AUTHENTICATION_FAILED: "sso_failed",
  EMAIL_NOT_VERIFIED: "sso_not_allowed",
  EMAIL_MISSING: "sso_not_allowed",
  EMAIL_DOMAIN_NOT_ALLOWED: "sso_not_allowed",
  SIGNUP_DISABLED: "sso_not_allowed",
  USER_DISABLED: "sso_not_allowed",
  ACCOUNT_EXISTS: "sso_account_exists",
};

/** A failed SSO login (the message is logged, never shown). */
export class OidcLoginError extends DeerflowError<OidcLoginErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/gateway/oidc-login-error");
  override name = "OidcLoginError";

  /** The login page's `error` parameter for this failure. */
  get redirectCode(): OidcRedirectErrorCode {
    return REDIRECT_CODE[this.code];
  }
}
