/**
 * Error bodies of the remote sandbox service and their mapping both ways:
 * the server turns a {@link SandboxError} into an HTTP status plus
 * `{ error: { code, message, path? } }`, and the client rebuilds a
 * `SandboxError` with the same code from it.
 */
import { SandboxError, type SandboxErrorCode } from "../../errors.js";

/** HTTP status the service answers for each {@link SandboxErrorCode}. */
export const HTTP_STATUS_BY_CODE: Readonly<Record<SandboxErrorCode, number>> = {
  NOT_FOUND: 404,
  READ_ONLY: 403,
  PATH_ESCAPE: 403,
  PATH_NOT_ALLOWED: 403,
  PERMISSION_DENIED: 403,
  HOST_EXECUTION_DISABLED: 403,
  TOO_LARGE: 413,
  // 507 Insufficient Storage: the thread's disk quota, not the request, is the problem.
  QUOTA_EXCEEDED: 507,
  INVALID_ARGUMENT: 400,
  NOT_A_DIRECTORY: 409,
  IS_A_DIRECTORY: 409,
  // 499 is nginx's "client closed request": the caller is gone, the status is informative only.
  ABORTED: 499,
  TIMEOUT: 504,
  UNAVAILABLE: 503,
  CONFIG_INVALID: 500,
};

const SANDBOX_CODES: ReadonlySet<string> = new Set(Object.keys(HTTP_STATUS_BY_CODE));

/**
 * Codes of failures that belong to the service rather than to a sandbox. They
 * appear on the wire only; the client maps each to a {@link SandboxErrorCode}
 * (see {@link sandboxErrorFromWire}).
 */
export type ServiceErrorCode =
  /** Missing or wrong `X-API-Key` (401); the client reports `CONFIG_INVALID`. */
  | "UNAUTHORIZED"
  /** The sandbox id is not hosted by this service (404); the client reports `UNAVAILABLE`. */
  | "SANDBOX_NOT_FOUND"
  /** No such route (404): a wrong base URL or an incompatible service; the client reports `CONFIG_INVALID`. */
  | "ROUTE_NOT_FOUND"
  /** The sandbox id is bound to another thread (409); the client reports `INVALID_ARGUMENT`. */
  | "CONFLICT"
  /** An unexpected server failure (500); details stay in the server log. The client reports `UNAVAILABLE`. */
  | "INTERNAL";

const SERVICE_CODE_MAP: Readonly<Record<ServiceErrorCode, SandboxErrorCode>> = {
  UNAUTHORIZED: "CONFIG_INVALID",
  SANDBOX_NOT_FOUND: "UNAVAILABLE",
  ROUTE_NOT_FOUND: "CONFIG_INVALID",
  CONFLICT: "INVALID_ARGUMENT",
  INTERNAL: "UNAVAILABLE",
};

/** Any code the service puts in an error body. */
export type WireErrorCode = SandboxErrorCode | ServiceErrorCode;

/** The `error` member of an error body. */
export interface WireError {
  readonly code: WireErrorCode;
  /** Human-readable; virtual paths only. */
  readonly message: string;
  /** The virtual path concerned, when there is one. */
  readonly path?: string;
}

/** Body of every non-2xx JSON answer (`success`/`message` mirror the all-in-one sandbox envelope). */
export interface WireErrorBody {
  readonly success: false;
  readonly message: string;
  readonly error: WireError;
}

/**
 * A failure of the service itself (auth, unknown sandbox, conflicts), thrown
 * inside route handlers and rendered by the error handler.
 */
export class ServiceError extends Error {
  readonly code: ServiceErrorCode;
  readonly statusCode: number;

  /**
   * @param code - Wire code.
   * @param statusCode - HTTP status to answer.
   * @param message - Message for the client (no host paths).
   */
  constructor(code: ServiceErrorCode, statusCode: number, message: string) {
    super(message);
    this.name = "ServiceError";
    this.code = code;
    this.statusCode = statusCode;
  }
}

/**
 * True when `value` is one of the {@link SandboxErrorCode}s.
 *
 * @param value - Anything.
 * @returns Whether it is a known sandbox error code.
 */
function isSandboxErrorCode(value: unknown): value is SandboxErrorCode {
  return typeof value === "string" && SANDBOX_CODES.has(value);
}

/**
 * Builds the wire error body.
 *
 * @param error - Code, message and optional path.
 * @returns The JSON body to send.
 */
export function wireErrorBody(error: WireError): WireErrorBody {
  return { success: false, message: error.message, error };
}

/**
 * Renders a {@link SandboxError} for the wire.
 *
 * @param err - The sandbox error.
 * @returns HTTP status and body.
 */
export function sandboxErrorToWire(err: SandboxError): { readonly statusCode: number; readonly body: WireErrorBody } {
  const error: WireError =
    err.path === undefined
      ? { code: err.code, message: err.message }
      : { code: err.code, message: err.message, path: err.path };
  return { statusCode: HTTP_STATUS_BY_CODE[err.code], body: wireErrorBody(error) };
}

function codeForStatus(status: number): SandboxErrorCode {
  if (status === 401) return "CONFIG_INVALID";
  if (status === 403) return "PERMISSION_DENIED";
  if (status === 404) return "UNAVAILABLE";
  if (status === 408 || status === 504) return "TIMEOUT";
  if (status === 413) return "TOO_LARGE";
  if (status === 507) return "QUOTA_EXCEEDED";
  if (status >= 500) return "UNAVAILABLE";
  return "INVALID_ARGUMENT";
}

/**
 * Rebuilds a {@link SandboxError} from a non-2xx answer. A sandbox code comes
 * back unchanged with its message and path; a service code or an unparsable
 * body (a proxy's HTML page) is mapped by code, then by status.
 *
 * @param status - HTTP status.
 * @param body - The parsed JSON body, or `undefined` when it was not JSON.
 * @param what - What was being done, for messages of non-service bodies (e.g. `POST /v1/file/read`).
 * @returns The error to throw.
 */
export function sandboxErrorFromWire(status: number, body: unknown, what: string): SandboxError {
  const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
  if (typeof error === "object" && error !== null) {
    const { code, message, path } = error as { code?: unknown; message?: unknown; path?: unknown };
    const text = typeof message === "string" ? message : `${what} failed with HTTP ${status}`;
    const options = typeof path === "string" ? { path } : undefined;
    if (isSandboxErrorCode(code)) return new SandboxError(code, text, options);
    if (typeof code === "string" && code in SERVICE_CODE_MAP) {
      return new SandboxError(SERVICE_CODE_MAP[code as ServiceErrorCode], `Sandbox service: ${text}`, options);
    }
  }
  return new SandboxError(codeForStatus(status), `Sandbox service: ${what} failed with HTTP ${status}`);
}
