/**
 * Assembly of the gateway's Fastify instance.
 */
import cors from "@fastify/cors";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from "fastify";
import { registerAccountsRoutes } from "./auth/accounts-routes.js";
import { createAccountsRuntime } from "./auth/accounts-runtime.js";
import { installAuth } from "./auth/auth-hook.js";
import { Authorization } from "./authz/authorization.js";
import { installRouteAuthorization } from "./authz/route-authorization.js";
import { GatewayError } from "./errors.js";
import { filesRoutes } from "./files/files-routes.js";
import type { CorsOptions, GatewayOptions } from "./gateway-options.js";
import { registerHealthRoutes } from "./health/health-routes.js";
import { registerModelsRoutes, type ModelCatalog } from "./models/models-routes.js";
import type { Principal } from "./auth/principal.js";
import { attachDrain } from "./http/drain.js";
import { installErrorHandlers } from "./http/error-handler.js";
import { installJsonParser } from "./http/json-parser.js";
import { recordRoutes, registerPublicRoutes } from "./http/public-routes.js";
import { registerOpenApi } from "./openapi/openapi.js";
import { skillsRoutes } from "./skills/skills-routes.js";
import { storeRoutes } from "./store/store-routes.js";

/** Default largest JSON body: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Prefix of every API route. */
export const API_PREFIX = "/api";

/** Response headers browsers may read (the LangGraph SDK needs `Content-Location` to learn run ids). */
export const EXPOSED_HEADERS: readonly string[] = [
  "Content-Location",
  "Location",
  "Content-Disposition",
  "Retry-After",
  "X-Pagination-Total",
];

function isLoggerInstance(value: unknown): value is FastifyBaseLogger {
  return (
    typeof value === "object" &&
    value !== null &&
    ["info", "warn", "error", "debug", "child"].every(
      (m) => typeof (value as Record<string, unknown>)[m] === "function",
    )
  );
}

function loggerOptions(logger: GatewayOptions["logger"]): Pick<FastifyServerOptions, "logger" | "loggerInstance"> {
  if (logger === undefined) return { logger: false };
  if (isLoggerInstance(logger)) return { loggerInstance: logger };
  return { logger };
}

function corsPluginOptions(options: CorsOptions): Record<string, unknown> {
  const credentials = options.credentials === true;
  const origin = options.origins === "*" ? (credentials ? true : "*") : [...options.origins];
  return {
    origin,
    credentials,
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    // null: the request's Access-Control-Request-Headers are reflected (Last-Event-ID, Authorization, X-Api-Key...).
    allowedHeaders: null,
    exposedHeaders: [...new Set([...EXPOSED_HEADERS, ...(options.exposedHeaders ?? [])])],
    maxAge: options.maxAgeSeconds ?? 600,
    strictPreflight: false,
  };
}

function checkOptions(options: GatewayOptions): void {
  const limit = options.bodyLimit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit <= 0)) {
    throw new GatewayError("CONFIG_INVALID", `bodyLimit must be a positive integer, got ${String(limit)}`);
  }
  if (options.cors !== undefined && options.cors.origins !== "*" && !Array.isArray(options.cors.origins)) {
    throw new GatewayError("CONFIG_INVALID", 'cors.origins must be "*" or a list of origins');
  }
}

/** The catalog with the role's model rule added to its own. */
function withModelAuthorization(catalog: ModelCatalog | undefined, authorization: Authorization) {
  if (catalog === undefined) return undefined;
  const own = catalog.allows;
  return {
    ...catalog,
    allows: async (principal: Principal, name: string) =>
      (await authorization.allowsModel(principal, name)) && (own === undefined || (await own(principal, name))),
  } satisfies ModelCatalog;
}

/**
 * Builds the gateway: a Fastify 5 instance with
 *
 * - CORS (when configured; preflights are answered before authentication),
 * - API-key authentication (when configured; `/health`, `/ok` and preflights stay open),
 * - `GET /health`, `GET /ok`, `GET /openapi.json`,
 * - draining for a graceful shutdown ({@link drainGateway}: new requests 503, open streams go on),
 * - the skills routes (`options.skills`), the thread files routes
 *   (`options.threadFiles`), the store API (`options.store`) and `options.routes`, all under `/api`,
 * - `options.publicRoutes` at the root, answered without a key (a web console),
 * - one error format: `{"detail": ...}` (see the README's error table).
 *
 * The instance is not listening: call `app.listen({ port, host })`, or
 * `app.inject(...)` in tests, and `app.close()` to stop.
 *
 * @param options - see {@link GatewayOptions}.
 * @returns the Fastify instance.
 * @throws GatewayError `CONFIG_INVALID` for bad options (API keys, body limit, CORS,
 *   a public route that could shadow an API route).
 * @example
 * ```ts
 * const app = await createGateway({
 *   auth: { apiKeys: [{ key: process.env.ADMIN_KEY ?? "", admin: true }] },
 *   cors: { origins: ["http://localhost:5173"] },
 *   skills: { backend: createSharedSkillsBackend({ catalog }) },
 *   threadFiles: new LocalThreadFiles({ root: ".deer-flow" }),
 * });
 * await app.listen({ port: 8001, host: "127.0.0.1" });
 * ```
 */
export async function createGateway(options: GatewayOptions = {}): Promise<FastifyInstance> {
  checkOptions(options);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const app = Fastify({
    ...loggerOptions(options.logger),
    bodyLimit,
    trustProxy: options.trustProxy ?? false,
    // Types are coerced like FastAPI's lax mode ("true" → true); unknown members are rejected, not stripped.
    // allowUnionTypes: `type: [..]` unions are deliberate (store filters: an anyOf would let coerceTypes
    // turn a number into a string in its first branch); without it Ajv's strict mode warns at every start.
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: "array",
        useDefaults: true,
        allErrors: false,
        allowUnionTypes: true,
      },
    },
  });

  installJsonParser(app, bodyLimit);
  installErrorHandlers(app);
  // What public routes are checked against: every route registered before them.
  const routes = options.publicRoutes === undefined ? [] : recordRoutes(app);
  const accounts = options.accounts === undefined ? undefined : createAccountsRuntime(options.accounts, app.log);
  await registerOpenApi(app, options.openapi ?? {}, options.auth !== undefined || accounts !== undefined);
  // Its onRequest hook must precede authentication so preflights (which carry no key) are answered.
  if (options.cors !== undefined) await app.register(cors, corsPluginOptions(options.cors));
  // Before authentication: a draining instance refuses new requests whoever sends them.
  const drain = attachDrain(app);
  installAuth(app, options.auth, accounts);
  if (accounts !== undefined) await registerAccountsRoutes(app, accounts);
  // Before any route is registered: its onRoute hook gives the thread and run routes their permission check.
  const authorization =
    options.authorization === undefined ? undefined : new Authorization({ ...options.authorization, logger: app.log });
  if (authorization !== undefined) installRouteAuthorization(app, authorization, options.models);
  registerHealthRoutes(app, {
    drain,
    ...(options.healthChecks === undefined ? {} : { checks: options.healthChecks }),
    ...(options.healthCheckTimeoutMs === undefined ? {} : { timeoutMs: options.healthCheckTimeoutMs }),
    ...(options.healthDetails === undefined ? {} : { details: options.healthDetails }),
  });

  const authorizeThread = options.authorizeThread === undefined ? {} : { authorizeThread: options.authorizeThread };
  if (options.skills !== undefined) {
    await app.register(skillsRoutes, {
      prefix: API_PREFIX,
      ...options.skills,
      ...(options.threadFiles === undefined ? {} : { files: options.threadFiles }),
      ...authorizeThread,
    });
  }
  if (options.threadFiles !== undefined) {
    await app.register(filesRoutes, {
      prefix: API_PREFIX,
      files: options.threadFiles,
      ...(options.uploads === undefined ? {} : { uploads: options.uploads }),
      ...(options.documentConverter === undefined ? {} : { documentConverter: options.documentConverter }),
      // `.skill` previews copy the archive like an install does, under the same size cap and temp folder.
      archivePreview: {
        ...(options.skills?.maxArchiveBytes === undefined ? {} : { maxArchiveBytes: options.skills.maxArchiveBytes }),
        ...(options.skills?.tempDir === undefined ? {} : { tempDir: options.skills.tempDir }),
      },
      ...authorizeThread,
    });
  }
  const models = authorization === undefined ? options.models : withModelAuthorization(options.models, authorization);
  if (models !== undefined)
    await app.register(async (api) => registerModelsRoutes(api, models), { prefix: API_PREFIX });
  if (options.store !== undefined) await app.register(storeRoutes({ store: options.store }), { prefix: API_PREFIX });
  for (const plugin of options.routes ?? []) await app.register(plugin, { prefix: API_PREFIX });
  if (options.publicRoutes !== undefined) await registerPublicRoutes(app, options.publicRoutes, API_PREFIX, routes);
  return app;
}
