/**
 * Renders every failure as `{ success: false, message, error: { code, message, path? } }`
 * with the status of {@link HTTP_STATUS_BY_CODE}, so the client can rebuild the
 * same `SandboxError`.
 */
import type { FastifyError, FastifyInstance } from "fastify";
import { SandboxError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { ServiceError, sandboxErrorToWire, wireErrorBody, type WireError } from "../wire/errors.js";

function isFastifyError(err: unknown): err is FastifyError {
  return (
    err instanceof Error &&
    typeof (err as { code?: unknown }).code === "string" &&
    typeof (err as { statusCode?: unknown }).statusCode === "number"
  );
}

/**
 * Classifies an error thrown while handling a request.
 *
 * @param err - Whatever was thrown.
 * @returns Status and wire error; unknown errors become a generic `INTERNAL` (details are logged, never sent).
 */
function classifyError(err: unknown): { readonly statusCode: number; readonly error: WireError } {
  if (SandboxError.isInstance(err)) {
    const { statusCode, body } = sandboxErrorToWire(err);
    return { statusCode, error: body.error };
  }
  if (err instanceof ServiceError)
    return { statusCode: err.statusCode, error: { code: err.code, message: err.message } };
  if (isFastifyError(err)) {
    if (err.validation !== undefined)
      return { statusCode: 400, error: { code: "INVALID_ARGUMENT", message: err.message } };
    if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE")
      return { statusCode: 413, error: { code: "TOO_LARGE", message: "Request body is too large" } };
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return { statusCode: status, error: { code: "INVALID_ARGUMENT", message: err.message } };
  }
  return { statusCode: 500, error: { code: "INTERNAL", message: "Internal error" } };
}

/**
 * Installs the error and not-found handlers.
 *
 * @param app - The Fastify instance.
 * @param logger - Server-side failures (5xx) are logged here with their details.
 */
export function installErrorHandlers(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((err: unknown, request, reply) => {
    const { statusCode, error } = classifyError(err);
    if (statusCode >= 500) {
      const detail = err instanceof Error ? { err: err.message, stack: err.stack } : { err: String(err) };
      logger.error({ ...detail, method: request.method, url: request.url, code: error.code }, "request failed");
    }
    return reply.code(statusCode).send(wireErrorBody(error));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(
      wireErrorBody({
        code: "ROUTE_NOT_FOUND",
        message: `Route ${request.method} ${request.url.split("?")[0] ?? ""} not found`,
      }),
    ),
  );
}
