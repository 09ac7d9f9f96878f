/**
 * The uniform error and not-found handlers: every failure leaves as
 * `{"detail": ...}` with the status of {@link toErrorResponse}.
 */
import type { FastifyInstance } from "fastify";
import { toErrorResponse } from "./error-response.js";

/**
 * Installs the handlers on the root instance (child plugins inherit them).
 *
 * Server errors are logged with the error (message and stack) through the
 * request logger and answered with a generic text; client errors are logged at
 * debug level only.
 *
 * @param app - the root Fastify instance.
 */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request, reply) => {
    const contentType = request.headers["content-type"];
    const { statusCode, detail, serverError, retryAfterSeconds } = toErrorResponse(
      err,
      typeof contentType === "string" ? contentType : undefined,
    );
    if (serverError) request.log.error({ err, method: request.method, url: request.url }, "request failed");
    else request.log.debug({ statusCode, code: (err as { code?: unknown }).code }, "request rejected");
    if (retryAfterSeconds !== undefined) reply.header("retry-after", String(retryAfterSeconds));
    return reply.code(statusCode).send({ detail });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: "Not Found" }));
}
