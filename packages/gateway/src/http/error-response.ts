/**
 * Classifies anything thrown while handling a request into a status and a
 * `detail`, following the `{"detail": ...}` convention of DeerFlow and the
 * LangGraph Platform's Python server.
 */
import { STATUS_CODES } from "node:http";
import { GatewayError, isDeerflowError } from "../errors.js";
import { skillErrorDetail } from "../skills/skill-error-detail.js";
import { RETRY_AFTER_SECONDS_BY_CODE, statusForCode } from "./status-table.js";
import { toValidationIssues, type AjvLikeError } from "./validation-detail.js";

/** What the error handler sends. */
export interface ErrorResponse {
  readonly statusCode: number;
  /** The body's `detail`: a string, a validation issue list or a structured object. */
  readonly detail: unknown;
  /** True when the failure is the server's (logged at error level with its stack). */
  readonly serverError: boolean;
  /** Seconds for the `Retry-After` header, for unavailability that should pass. */
  readonly retryAfterSeconds?: number;
}

/** Error class names of `@deerflow/*` packages whose `code` is trusted without the shared brand. */
const DEERFLOW_ERROR_NAMES: ReadonlySet<string> = new Set([
  "GatewayError",
  "SkillsError",
  "RuntimeError",
  "SandboxError",
  "SubagentError",
]);

interface FastifyLikeError {
  readonly code: string;
  readonly statusCode?: number;
  readonly message: string;
  readonly validation?: readonly AjvLikeError[];
  readonly validationContext?: string;
}

function codeOf(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

function isFastifyError(err: unknown): err is FastifyLikeError {
  const code = codeOf(err);
  return (
    err instanceof Error &&
    code !== undefined &&
    (code.startsWith("FST_") || Array.isArray((err as { validation?: unknown }).validation))
  );
}

function generic(statusCode: number): string {
  return STATUS_CODES[statusCode] ?? "Error";
}

/** Fastify and @fastify/multipart errors that carry no secrets, with our wording. */
function fastifyResponse(err: FastifyLikeError, contentType: string | undefined): ErrorResponse {
  if (err.validation !== undefined) {
    return { statusCode: 422, detail: toValidationIssues(err.validation, err.validationContext), serverError: false };
  }
  switch (err.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { statusCode: 413, detail: "Request body is too large.", serverError: false };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return { statusCode: 400, detail: "Malformed JSON in request body.", serverError: false };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { statusCode: 415, detail: `Unsupported Media Type: ${contentType ?? "(none)"}`, serverError: false };
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
      return { statusCode: 415, detail: "Request must be multipart/form-data.", serverError: false };
    case "FST_REQ_FILE_TOO_LARGE":
      return { statusCode: 413, detail: "Uploaded file is too large.", serverError: false };
    case "FST_FILES_LIMIT":
      return { statusCode: 413, detail: "Too many files in one request.", serverError: false };
    case "FST_PARTS_LIMIT":
    case "FST_FIELDS_LIMIT":
      return { statusCode: 413, detail: "Too many form fields in one request.", serverError: false };
    default: {
      const status = err.statusCode ?? 500;
      if (status >= 400 && status < 500)
        return { statusCode: status, detail: err.message || generic(status), serverError: false };
      return { statusCode: 500, detail: generic(500), serverError: true };
    }
  }
}

/**
 * Classifies a thrown value.
 *
 * - {@link GatewayError}: the status of its code, its `detail`.
 * - Other `@deerflow/*` errors (branded, or named like one) with a code in
 *   `ERROR_STATUS_BY_CODE`: that status; the message (or the structured scan
 *   detail of a skills security block) for 4xx, a generic text for 5xx, whose
 *   messages may name infrastructure; `retryAfterSeconds` for the codes of
 *   `RETRY_AFTER_SECONDS_BY_CODE` (a Redis outage, a shutdown).
 * - Fastify errors: validation → 422 issue list, JSON → 400, size → 413, media type → 415.
 * - Anything else: 500 `"Internal Server Error"`, flagged for logging.
 *
 * @param err - whatever was thrown.
 * @param contentType - the request's `Content-Type`, named in 415 details.
 * @returns status, detail and whether it is a server error.
 */
export function toErrorResponse(err: unknown, contentType?: string): ErrorResponse {
  if (GatewayError.isInstance(err)) {
    const statusCode = statusForCode(err.code) ?? 500;
    return { statusCode, detail: err.detail, serverError: statusCode >= 500 };
  }
  const code = codeOf(err);
  const named = err instanceof Error && DEERFLOW_ERROR_NAMES.has(err.name);
  if (code !== undefined && (isDeerflowError(err) || named)) {
    const statusCode = statusForCode(code);
    if (statusCode !== undefined) {
      if (statusCode >= 500) {
        const retryAfterSeconds = Object.hasOwn(RETRY_AFTER_SECONDS_BY_CODE, code)
          ? RETRY_AFTER_SECONDS_BY_CODE[code]
          : undefined;
        return {
          statusCode,
          detail: generic(statusCode),
          serverError: true,
          ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
        };
      }
      return { statusCode, detail: skillErrorDetail(err) ?? (err as Error).message, serverError: false };
    }
  }
  if (isFastifyError(err)) return fastifyResponse(err, contentType);
  return { statusCode: 500, detail: generic(500), serverError: true };
}
