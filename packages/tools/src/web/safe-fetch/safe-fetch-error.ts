/** Typed errors of the SSRF-safe fetcher. */
import { DeerflowError } from "@deerflow/kernel";

/** Stable codes of {@link SafeFetchError}. */
export type SafeFetchErrorCode =
  /** Not an absolute http(s) URL. */
  | "URL_UNSUPPORTED"
  /** The host, or an address it resolves to, is not one the policy allows. */
  | "URL_BLOCKED"
  /** The host does not resolve. */
  | "DNS_FAILED"
  /** More redirects than `maxRedirects`, or a redirect without a usable `Location`. */
  | "REDIRECT_INVALID"
  /** The body is larger than `maxBytes`. */
  | "BODY_TOO_LARGE"
  /** The whole exchange took longer than `timeoutMs`. */
  | "TIMEOUT"
  /** The connection failed (refused, reset, TLS). */
  | "NETWORK";

/**
 * Why a safe fetch did not return a response. The message is written for the
 * model to read (`Error: ...` texts are built from it).
 */
export class SafeFetchError extends DeerflowError<SafeFetchErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/tools/safe-fetch-error");
  override name = "SafeFetchError";
}
