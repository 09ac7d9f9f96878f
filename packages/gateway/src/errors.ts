/**
 * Typed errors raised by `@deerflow/gateway` itself.
 *
 * Every error is a {@link GatewayError} with a stable {@link GatewayErrorCode};
 * the error handler turns the code into an HTTP status through one table
 * (`ERROR_STATUS_BY_CODE`) and the message into the `detail` of the body, so
 * messages are written for API callers and never carry host paths. The brand is
 * the registry symbol shared by all `@deerflow/*` packages.
 *
 * @example
 * ```ts
 * throw new GatewayError("FILE_NOT_FOUND", `File not found: ${virtualPath}`);
 * // → 404 {"detail": "File not found: /mnt/user-data/outputs/x.md"}
 * ```
 */

import { DeerflowError } from "@deerflow/kernel";

export { isDeerflowError } from "@deerflow/kernel";

/**
 * Stable error codes of the gateway (the HTTP status is in parentheses).
 *
 * - `BAD_REQUEST` (400): a request the route cannot act on (wrong number of files...).
 * - `MALFORMED_JSON` (400): the JSON body does not parse.
 * - `INVALID_PATH` (400): a virtual path outside `/mnt/user-data`, or with a NUL byte.
 * - `INVALID_FILENAME` (400): an upload or delete file name that is empty, `.`/`..`, hidden, too long or has control characters.
 * - `NOT_A_FILE` (400): the path names a directory.
 * - `UNAUTHORIZED` (401): missing or unknown API key.
 * - `FORBIDDEN` (403): the caller is not allowed (admin-only routes).
 * - `PATH_TRAVERSAL` (403): `..` in a path, or a symlink leading out of the thread's folders.
 * - `NOT_FOUND` / `FILE_NOT_FOUND` (404): unknown route / file.
 * - `CONFLICT` (409): the request clashes with the current state (an initialised system, the last admin).
 * - `PAYLOAD_TOO_LARGE`, `FILE_TOO_LARGE`, `TOO_MANY_FILES` (413): body, one upload or the count over its limit.
 * - `UNSUPPORTED_MEDIA_TYPE` (415): a content type the route does not take.
 * - `RANGE_NOT_SATISFIABLE` (416): a `Range` no byte of the file falls in.
 * - `VALIDATION_FAILED` (422): a request that fails its JSON Schema.
 * - `TOO_MANY_REQUESTS` (429): a caller locked out for a while (repeated failed logins).
 * - `BAD_GATEWAY` (502): an upstream service the route depends on failed (an SSO provider).
 * - `SERVICE_UNAVAILABLE` (503): a health check failed.
 * - `INTERNAL` (500): a failure with a deliberately generic message.
 * - `CONFIG_INVALID`: {@link createGateway} options are wrong (thrown at startup).
 */
export type GatewayErrorCode =
  | "BAD_REQUEST"
  | "MALFORMED_JSON"
  | "INVALID_PATH"
  | "INVALID_FILENAME"
  | "NOT_A_FILE"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "PATH_TRAVERSAL"
  | "NOT_FOUND"
  | "FILE_NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "FILE_TOO_LARGE"
  | "TOO_MANY_FILES"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "RANGE_NOT_SATISFIABLE"
  | "VALIDATION_FAILED"
  | "TOO_MANY_REQUESTS"
  | "BAD_GATEWAY"
  | "SERVICE_UNAVAILABLE"
  | "INTERNAL"
  | "CONFIG_INVALID";

/** Base class of every error thrown by `@deerflow/gateway` (the file header says what it carries). */
export class GatewayError extends DeerflowError<GatewayErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/gateway/error");
  override name = "GatewayError";
  /**
   * The `detail` sent to the client when it is not the message itself
   * (validation issue lists, structured scan findings).
   */
  readonly detail: unknown;

  /**
   * @param code - stable code, mapped to the HTTP status.
   * @param message - client-facing text (the `detail` unless `options.detail` is given).
   * @param options - optional `cause` and a structured `detail`.
   */
  constructor(code: GatewayErrorCode, message: string, options?: { cause?: unknown; detail?: unknown }) {
    super(code, message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.detail = options?.detail ?? message;
  }
}
