/**
 * The remote sandbox service: a Fastify instance serving the sandboxes of a
 * {@link SandboxProvider} over HTTP, one namespace per sandbox.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { silentLogger, type Logger } from "../../logger.js";
import type { SandboxProvider } from "../../provider.js";
import { DEFAULT_CLIENT_ID, KeyRing, type ClientKey } from "./auth.js";
import { installErrorHandlers } from "./error-handler.js";
import { registerFileRoutes } from "./file-routes.js";
import { registerProvisionerRoutes, requestBaseUrl, type BaseUrlResolver } from "./provisioner-routes.js";
import { installAuthentication } from "./request-principal.js";
import { SandboxRegistry } from "./sandbox-registry.js";
import { registerShellRoutes } from "./shell-routes.js";

/** Default request body limit: 64 MiB (a 48 MiB file written as base64). */
export const DEFAULT_BODY_LIMIT = 64 * 1024 * 1024;

/** Options of {@link createSandboxServer}. */
export interface SandboxServerOptions {
  /** Where sandboxes come from (typically a `LocalSandboxProvider`). The caller shuts it down. */
  readonly provider: SandboxProvider;
  /**
   * A single client key: shorthand for `clients: [{ id: "default", key: token }]`.
   * Without any key (`token`, `clients`, `adminKey`) the service is open and
   * every caller is the `default` client: bind it to loopback only.
   */
  readonly token?: string;
  /**
   * Client keys. Every request (except `GET /healthz`) carries one in
   * `X-API-Key`; a client sees and reaches only the sandboxes it created, and
   * gets 404 for any other. Ids are `[A-Za-z0-9_-]{1,64}` (not `admin`), keys unique.
   */
  readonly clients?: readonly ClientKey[];
  /**
   * The operator's key: lists every client's sandboxes (records carry `owner`)
   * and reads or deletes one with `?owner=<client id>`; it creates none and
   * reaches no `/sandboxes/:id` route.
   */
  readonly adminKey?: string;
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
 * Each client key owns the sandboxes it creates: listing shows only those and
 * every per-sandbox route answers 404 `SANDBOX_NOT_FOUND` for another key's
 * sandbox; the admin key lists all (see {@link SandboxServerOptions.adminKey}).
 *
 * Errors are `{ success: false, message, error: { code, message, path? } }` with the
 * status of the code (see `HTTP_STATUS_BY_CODE`). A client that disconnects
 * during `/v1/shell/exec` aborts the command.
 *
 * @param options - Provider, keys, logger, limits.
 * @returns A Fastify instance, not yet listening (`await app.listen({ port, host })`, or `app.inject` in tests).
 * @throws {@link SandboxError} `CONFIG_INVALID` for a bad client id, a repeated id or a shared key.
 * @example
 * ```ts
 * const app = createSandboxServer({
 *   provider: new LocalSandboxProvider({ baseDir, runner }),
 *   clients: [{ id: "agents-eu", key: process.env.EU_KEY! }, { id: "agents-us", key: process.env.US_KEY! }],
 *   adminKey: process.env.ADMIN_KEY,
 * });
 * await app.listen({ port: 8080, host: "127.0.0.1" });
 * ```
 */
export function createSandboxServer(options: SandboxServerOptions): FastifyInstance {
  const logger = options.logger ?? silentLogger;
  // Before Fastify exists: a bad key configuration throws without leaving an instance behind.
  const clients = [
    ...(options.token === undefined ? [] : [{ id: DEFAULT_CLIENT_ID, key: options.token }]),
    ...(options.clients ?? []),
  ];
  const keys = new KeyRing(clients, options.adminKey);
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Fastify's ajv defaults strip unknown members and coerce types; reject instead.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: false } },
  });
  const registry = new SandboxRegistry(options.provider, logger);
  const publicUrl = options.publicUrl?.replace(/\/+$/, "");
  const baseUrl: BaseUrlResolver = publicUrl === undefined ? requestBaseUrl : () => publicUrl;
  installErrorHandlers(app, logger);
  installAuthentication(app, keys);

  app.get("/healthz", async () => ({ status: "ok" }));
  registerProvisionerRoutes(app, registry, baseUrl);
  registerShellRoutes(app, registry);
  registerFileRoutes(app, registry);

  // preClose runs before Fastify waits for in-flight requests: running commands end now, not in 600 s.
  app.addHook("preClose", async () => registry.abortAll());
  return app;
}
