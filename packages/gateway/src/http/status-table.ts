/**
 * The one table from stable `@deerflow/*` error codes to HTTP statuses.
 *
 * Errors are matched by their `code` string, so the gateway needs no import of
 * the packages that define them (`@deerflow/runtime` is matched the same way
 * as `@deerflow/skills`). Codes shared by several packages mean the same thing
 * everywhere (`FILE_NOT_FOUND`, `INVALID_PATH`, `CONFIG_INVALID`).
 */

/** HTTP status of every known error code. */
export const ERROR_STATUS_BY_CODE: Readonly<Record<string, number>> = Object.freeze({
  // @deerflow/gateway
  BAD_REQUEST: 400,
  MALFORMED_JSON: 400,
  INVALID_PATH: 400,
  INVALID_FILENAME: 400,
  NOT_A_FILE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PATH_TRAVERSAL: 403,
  NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  TOO_MANY_FILES: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  VALIDATION_FAILED: 422,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
  CONFIG_INVALID: 500,

  // @deerflow/skills (DeerFlow answers every ValueError of the skills routes with 400)
  SKILL_NOT_FOUND: 404,
  SKILL_ALREADY_EXISTS: 409,
  SKILL_INVALID: 400,
  SKILL_READ_ONLY: 400,
  SKILL_TOO_LARGE: 400,
  INVALID_NAME: 400,
  ARCHIVE_INVALID: 400,
  ARCHIVE_UNSAFE: 400,
  ARCHIVE_TOO_LARGE: 400,
  SECURITY_BLOCKED: 400,
  SECURITY_SCAN_FAILED: 400,
  HISTORY_NOT_FOUND: 400,

  // @deerflow/runtime
  RUN_NOT_FOUND: 404,
  THREAD_NOT_FOUND: 404,
  ASSISTANT_NOT_FOUND: 404,
  THREAD_BUSY: 409,
  THREAD_EXISTS: 409,
  NOT_CANCELLABLE: 409,
  OWNERSHIP_LOST: 409,
  INVALID_ARGUMENT: 422,
  STORE_UNAVAILABLE: 503,
  BRIDGE_UNAVAILABLE: 503,
  SHUTTING_DOWN: 503,
  CLOSED: 503,
});

/**
 * `Retry-After` (seconds) of the 503s that mean "try again shortly": a backing
 * service (Redis) that does not answer, an instance shutting down (a load
 * balancer sends the retry to another one).
 */
export const RETRY_AFTER_SECONDS_BY_CODE: Readonly<Record<string, number>> = Object.freeze({
  STORE_UNAVAILABLE: 5,
  BRIDGE_UNAVAILABLE: 5,
  SHUTTING_DOWN: 1,
  CLOSED: 1,
});

/**
 * @param code - an error's `code`.
 * @returns its HTTP status, or `undefined` for a code the table does not know.
 */
export function statusForCode(code: string): number | undefined {
  return Object.hasOwn(ERROR_STATUS_BY_CODE, code) ? ERROR_STATUS_BY_CODE[code] : undefined;
}
