/**
 * The one table from stable `@deerflow/*` error codes to HTTP statuses.
 *
 * Errors are matched by their `code` string at run time, so the gateway
 * imports only the code *types* of the packages that define them: each
 * package's part of the table `satisfies` a record over that package's code
 * union, so a code added to a package without a status here fails the
 * typecheck, and so does a stale one. Codes shared by several packages mean
 * the same thing everywhere (`FILE_NOT_FOUND`, `INVALID_PATH`, `NOT_FOUND`,
 * `INVALID_ARGUMENT`, `CONFIG_INVALID`): the unit test checks their parts agree.
 */
import type { RuntimeErrorCode } from "@deerflow/runtime";
import type { SandboxErrorCode } from "@deerflow/sandbox";
import type { SkillsErrorCode } from "@deerflow/skills";
import type { GatewayErrorCode } from "../errors.js";

/** `@deerflow/gateway`'s own codes. */
export const GATEWAY_STATUSES = {
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
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  TOO_MANY_FILES: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  VALIDATION_FAILED: 422,
  TOO_MANY_REQUESTS: 429,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
  CONFIG_INVALID: 500,
} as const satisfies Record<GatewayErrorCode, number>;

/** `@deerflow/skills` (DeerFlow answers every ValueError of the skills routes with 400). */
export const SKILLS_STATUSES = {
  SKILL_NOT_FOUND: 404,
  SKILL_ALREADY_EXISTS: 409,
  SKILL_INVALID: 400,
  SKILL_READ_ONLY: 400,
  SKILL_TOO_LARGE: 400,
  INVALID_NAME: 400,
  INVALID_PATH: 400,
  FILE_NOT_FOUND: 404,
  ARCHIVE_INVALID: 400,
  ARCHIVE_UNSAFE: 400,
  ARCHIVE_TOO_LARGE: 400,
  SECURITY_BLOCKED: 400,
  SECURITY_SCAN_FAILED: 400,
  HISTORY_NOT_FOUND: 400,
  // The server's configuration, not the request: a server failure.
  CONFIG_INVALID: 500,
  CONFIG_NOT_FOUND: 500,
} as const satisfies Record<SkillsErrorCode, number>;

/** `@deerflow/runtime`. */
export const RUNTIME_STATUSES = {
  RUN_NOT_FOUND: 404,
  THREAD_NOT_FOUND: 404,
  ASSISTANT_NOT_FOUND: 404,
  THREAD_BUSY: 409,
  THREAD_EXISTS: 409,
  NOT_CANCELLABLE: 409,
  OWNERSHIP_LOST: 409,
  INVALID_ARGUMENT: 422,
  CONFIG_INVALID: 500,
  STORE_UNAVAILABLE: 503,
  BRIDGE_UNAVAILABLE: 503,
  SHUTTING_DOWN: 503,
  CLOSED: 503,
  ASSISTANT_EXISTS: 409,
  USER_NOT_FOUND: 404,
  EMAIL_EXISTS: 409,
  OAUTH_IDENTITY_EXISTS: 409,
  ALREADY_INITIALIZED: 409,
} as const satisfies Record<RuntimeErrorCode, number>;

/**
 * `@deerflow/sandbox`. No gateway route calls a sandbox: one of its errors
 * reaching a route is the server's failure (500), except the codes it shares
 * with the packages above.
 */
export const SANDBOX_STATUSES = {
  NOT_FOUND: 404,
  INVALID_ARGUMENT: 422,
  CONFIG_INVALID: 500,
  READ_ONLY: 500,
  PATH_ESCAPE: 500,
  PATH_NOT_ALLOWED: 500,
  TOO_LARGE: 500,
  QUOTA_EXCEEDED: 500,
  TIMEOUT: 500,
  ABORTED: 500,
  NOT_A_DIRECTORY: 500,
  IS_A_DIRECTORY: 500,
  PERMISSION_DENIED: 500,
  HOST_EXECUTION_DISABLED: 500,
  UNAVAILABLE: 500,
} as const satisfies Record<SandboxErrorCode, number>;

/** Every error code the gateway can meet. */
type KnownErrorCode = GatewayErrorCode | SkillsErrorCode | RuntimeErrorCode | SandboxErrorCode;

/** HTTP status of every known error code. */
export const ERROR_STATUS_BY_CODE: Readonly<Record<string, number>> = Object.freeze({
  ...SANDBOX_STATUSES,
  ...RUNTIME_STATUSES,
  ...SKILLS_STATUSES,
  ...GATEWAY_STATUSES,
} satisfies Record<KnownErrorCode, number>);

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
} satisfies Partial<Record<KnownErrorCode, number>>);

/**
 * @param code - an error's `code`.
 * @returns its HTTP status, or `undefined` for a code the table does not know.
 */
export function statusForCode(code: string): number | undefined {
  return Object.hasOwn(ERROR_STATUS_BY_CODE, code) ? ERROR_STATUS_BY_CODE[code] : undefined;
}
