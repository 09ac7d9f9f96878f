/**
 * The remote sandbox service: a Fastify instance serving the sandboxes of a
 * {@link SandboxProvider} over HTTP, one namespace per sandbox.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { silentLogger, type Logger } from "../../logger.js";
import type { SandboxProvider } from "../../provider.js";
import { wireErrorBody } from "../wire/errors.js";
import { API_KEY_HEADER } from "../wire/types.js";
import { apiKeyMatches } from "./auth.js";
import { installErrorHandlers } from "./error-handler.js";
import { registerFileRoutes } from "./file-routes.js";
import { registerProvisionerRoutes, requestBaseUrl, type BaseUrlResolver } from "./provisioner-routes.js";
import { SandboxRegistry } from "./sandbox-registry.js";
import { registerShellRoutes } from "./shell-routes.js";

/** Default request body limit: 64 MiB (a 48 MiB file written as base64). */
export const DEFAULT_BODY_LIMIT = 64 * 1024 * 1024;

/** Options of {@link createSandboxServer}. */
export interface SandboxServerOptions {
  /** Where sandboxes come from (typically a `LocalSandboxProvider`). The caller shuts it down. */
  readonly provider: SandboxProvider;
  /**
   * Shared secret every request must carry in `X-API-Key` (except `GET /healthz`).
   * Without it the service is open: bind it to loopback only.
   */
  readonly token?: string;
  /** Receives acquire/destroy events and server-side failures. */
  readonly logger?: Logger;
  /** Largest request body in bytes; larger ones get 413 `TOO_LARGE`. Default {@link DEFAULT_BODY_LIMIT}. */
  readonly bodyLimit?: number;
  /** Base of the `sandbox_url`s handed out, e.g. `https://sandbox.internal`. Default: the scheme and `Host` of each request. */
  readonly publicUrl?: string;
}

/**
 * Creates the service. Routes (JSON, snake_case):
 *
 * - `GET /healthz` (no auth) → `{ status: "ok" }`
 * - `POST /api/sandboxes {sandbox_id, thread_id, user_id?}` → `{sandbox_id, sandbox_url, status, thread_id, user_id}`;
 *   `GET /api/sandboxes[/:id]`, `DELETE /api/sandboxes/:id`
 * - under `/sandboxes/:id`: `GET /v1/sandbox`, `POST /v1/shell/exec`, `POST /v1/file/{read,write,list,find,grep}`,
 *   `GET /v1/file/download?path=`; answers are `{ success: true, data }`.
 *
 * Errors are `{ success: false, message, error: { code, message, path? } }` with the
 * status of the code (see `HTTP_STATUS_BY_CODE`). A client that disconnects
 * during `/v1/shell/exec` aborts the command.
 *
 * @param options - Provider, secret, logger, limits.
 * @returns A Fastify instance, not yet listening (`await app.listen({ port, host })`, or `app.inject` in tests).
 * @example
 * ```ts
 * const app = createSandboxServer({ provider: new LocalSandboxProvider({ baseDir, runner }), token: process.env.SANDBOX_API_KEY });
 * await app.listen({ port: 8080, host: "127.0.0.1" });
 * ```
 */
export function createSandboxServer(options: SandboxServerOptions): FastifyInstance {
  const logger = options.logger ?? silentLogger;
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Fastify's ajv defaults strip unknown members and coerce types; reject instead.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: false } },
  });
  const registry = new SandboxRegistry(options.provider, logger);
  const publicUrl = options.publicUrl?.replace(/\/+$/, "");
  const baseUrl: BaseUrlResolver = publicUrl === undefined ? requestBaseUrl : () => publicUrl;
  const token = options.token;

  installErrorHandlers(app, logger);

  if (token !== undefined) {
    // onRequest runs before the body is read: an unauthenticated client cannot make us parse 64 MiB.
    app.addHook("onRequest", async (request, reply) => {
      if (request.routeOptions.url === "/healthz") return;
      if (!apiKeyMatches(request.headers[API_KEY_HEADER], token)) {
        await reply.code(401).send(wireErrorBody({ code: "UNAUTHORIZED", message: "Missing or invalid X-API-Key" }));
      }
    });
  }

  app.get("/healthz", async () => ({ status: "ok" }));
  registerProvisionerRoutes(app, registry, baseUrl);
  registerShellRoutes(app, registry);
  registerFileRoutes(app, registry);

  // preClose runs before Fastify waits for in-flight requests: running commands end now, not in 600 s.
  app.addHook("preClose", async () => registry.abortAll());
  return app;
}
