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

const DEERFLOW_ERROR = Symbol.for("@deerflow/error");
const GATEWAY_ERROR = Symbol.for("@deerflow/gateway/error");

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
 * - `PAYLOAD_TOO_LARGE`, `FILE_TOO_LARGE`, `TOO_MANY_FILES` (413): body, one upload or the count over its limit.
 * - `UNSUPPORTED_MEDIA_TYPE` (415): a content type the route does not take.
 * - `RANGE_NOT_SATISFIABLE` (416): a `Range` no byte of the file falls in.
 * - `VALIDATION_FAILED` (422): a request that fails its JSON Schema.
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
  | "PAYLOAD_TOO_LARGE"
  | "FILE_TOO_LARGE"
  | "TOO_MANY_FILES"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "RANGE_NOT_SATISFIABLE"
  | "VALIDATION_FAILED"
  | "SERVICE_UNAVAILABLE"
  | "INTERNAL"
  | "CONFIG_INVALID";

/** Base class of every error thrown by `@deerflow/gateway`. */
export class GatewayError extends Error {
  /** Stable machine-readable code. */
  readonly code: GatewayErrorCode;
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
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "GatewayError";
    this.code = code;
    this.detail = options?.detail ?? message;
    Object.defineProperty(this, DEERFLOW_ERROR, { value: true });
    Object.defineProperty(this, GATEWAY_ERROR, { value: true });
  }

  /** Brand check that survives duplicate package copies (unlike `instanceof`). */
  static isInstance(value: unknown): value is GatewayError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[GATEWAY_ERROR] === true;
  }
}

/** True for any error created by a `@deerflow/*` package (they share one brand symbol). */
export function isDeerflowError(value: unknown): value is Error & { code: string } {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[DEERFLOW_ERROR] === true;
}
