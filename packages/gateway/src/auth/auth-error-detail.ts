/**
 * DeerFlow's auth errors: `detail` is `{code, message}` with a lower-case
 * code clients switch on (the console shows the message).
 */
import { GatewayError, type GatewayErrorCode } from "../errors.js";

/** DeerFlow's `AuthErrorCode` values (the wire codes of auth failures). */
export type AuthErrorCode =
  | "invalid_credentials"
  | "token_expired"
  | "token_invalid"
  | "user_not_found"
  | "email_already_exists"
  | "provider_not_found"
  | "not_authenticated"
  | "system_already_initialized"
  | "system_not_initialized"
  | "registration_disabled"
  | "account_disabled";

/** The `detail` of an auth failure. */
export interface AuthErrorDetail {
  readonly code: AuthErrorCode;
  readonly message: string;
}

/**
 * @param status - the gateway code fixing the HTTP status.
 * @param code - the wire code.
 * @param message - the client-facing text.
 * @returns the error to throw.
 */
export function authError(status: GatewayErrorCode, code: AuthErrorCode, message: string): GatewayError {
  return new GatewayError(status, message, { detail: { code, message } satisfies AuthErrorDetail });
}
