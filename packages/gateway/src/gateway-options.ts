/**
 * Options of {@link createGateway}.
 */
import type { BaseStore } from "@langchain/langgraph-checkpoint";
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyServerOptions } from "fastify";
import type { AccountsOptions } from "./auth/accounts-options.js";
import type { AuthOptions } from "./auth/api-keys.js";
import type { ThreadAuthorizer } from "./auth/thread-access.js";
import type { AuthorizationOptions } from "./authz/authorization.js";
import type { DocumentConverter } from "./files/document-converter.js";
import type { UploadLimits } from "./files/receive-uploads.js";
import type { ThreadFiles } from "./files/thread-files.js";
import type { HealthCheck, HealthDetails } from "./health/health-routes.js";
import type { ModelCatalog } from "./models/models-routes.js";
import type { OpenApiOptions } from "./openapi/openapi.js";
import type { SkillsRoutesOptions } from "./skills/skills-routes-options.js";

/** CORS settings (applied by `@fastify/cors`). */
export interface CorsOptions {
  /**
   * Allowed origins, e.g. `["https://console.example.com"]`, or `"*"` for any
   * (with `credentials`, `"*"` reflects the caller's origin, as browsers refuse `*` with credentials).
   */
  readonly origins: readonly string[] | "*";
  /** Send `Access-Control-Allow-Credentials: true`. Default false. */
  readonly credentials?: boolean;
  /** Extra response headers to expose (`Content-Location`, `Location`, `Content-Disposition`, `Retry-After`, `X-Pagination-Total` always are). */
  readonly exposedHeaders?: readonly string[];
  /** Preflight cache lifetime in seconds. Default 600. */
  readonly maxAgeSeconds?: number;
}

/** The skills routes' settings (thread files and thread authorization come from the gateway options). */
export type GatewaySkillsOptions = Omit<SkillsRoutesOptions, "files" | "authorizeThread">;

/** Options of `createGateway`. */
export interface GatewayOptions {
  /**
   * Logging: a pino-compatible logger instance (for example the server's own pino logger),
   * or Fastify's logger configuration (`true`, `{ level: "info" }`). Default: no logging.
   */
  readonly logger?: FastifyBaseLogger | FastifyServerOptions["logger"];
  /** Largest JSON body in bytes (uploads have their own limits). Default 1 MiB. */
  readonly bodyLimit?: number;
  /** CORS for browser clients; without it no CORS headers are sent. */
  readonly cors?: CorsOptions;
  /** API-key authentication; without it every caller is admin user `default`. */
  readonly auth?: AuthOptions;
  /**
   * User accounts: the `/api/v1/auth` routes (login, sessions in cookies with
   * CSRF double-submit, registration, per-user API keys, user management) and
   * authentication by session cookie or per-user key besides `auth`'s keys.
   */
  readonly accounts?: AccountsOptions;
  /** Component checks of `GET /health` (503 naming the failed ones). */
  readonly healthChecks?: Readonly<Record<string, HealthCheck>>;
  /** Time limit of each health check in milliseconds. Default 5000. */
  readonly healthCheckTimeoutMs?: number;
  /** Figures reported under `details` of `GET /health`, e.g. `{ stream_bridge: { slow_subscriber_gaps: 0 } }`. */
  readonly healthDetails?: HealthDetails;
  /** `info` of the OpenAPI document at `GET /openapi.json`. */
  readonly openapi?: OpenApiOptions;
  /** Mounts the skills routes under `/api/skills`. */
  readonly skills?: GatewaySkillsOptions;
  /** Mounts the thread files routes (`/api/threads/:thread_id/{uploads,artifacts,files}`) and enables `POST /api/skills/install`. */
  readonly threadFiles?: ThreadFiles;
  /** Limits of `POST /api/threads/:thread_id/uploads`. */
  readonly uploads?: UploadLimits;
  /** Gives accepted uploads a Markdown companion (off without one; the gateway depends on no parser). */
  readonly documentConverter?: DocumentConverter;
  /** Mounts `GET /api/models` and `GET /api/models/:name` over the server's models. */
  readonly models?: ModelCatalog;
  /**
   * Mounts the LangGraph Platform store API (`PUT|GET|DELETE /api/store/items`,
   * `POST /api/store/items/search`, `POST /api/store/namespaces`) over this store, each
   * caller's items under a namespace prefix of their own (see the README).
   */
  readonly store?: BaseStore;
  /**
   * Role-based authorization (DeerFlow's `authorization:`): the provider decides the thread and
   * run routes' permissions (403 `Permission denied: <permission>`), the models `/api/models`
   * lists and a run may use (a denied one falls back to the first allowed), and runs carry the
   * caller's role in `configurable.user_role` for the agent's tool checks. Without it every
   * authenticated caller may use every route and model.
   */
  readonly authorization?: Omit<AuthorizationOptions, "logger">;
  /** Per-thread authorization for every route taking a thread id. */
  readonly authorizeThread?: ThreadAuthorizer;
  /**
   * More route plugins, registered under the `/api` prefix after the built-in
   * ones (the LangGraph-compatible assistants/threads/runs routes plug in here).
   * Wrap a plugin that needs options: `async (app) => app.register(runsRoutes, { manager })`.
   */
  readonly routes?: readonly FastifyPluginAsync[];
  /**
   * Route plugins registered at the root (no prefix) after every other route, whose routes
   * answer without an API key and while the gateway drains, like `/health`: a web console's
   * files, the facts it reads before its first API call. They get the gateway's error format,
   * CORS and logging. They cannot shadow an API route: under `/api` only fixed paths that no
   * API route matches are accepted (else `CONFIG_INVALID`), and a public route with parameters
   * or a wildcard (`/*`) never answers a path under `/api` (that stays the API's unknown route:
   * 401 without a key, else 404). The routes are checked against those registered by
   * `createGateway`; routes added to the instance later are not.
   *
   * @example
   * ```ts
   * publicRoutes: [async (app) => app.get("/api/info", async () => ({ version: "1.0.0" }))]
   * ```
   */
  readonly publicRoutes?: readonly FastifyPluginAsync[];
  /** Fastify's `trustProxy` (for `request.ip` behind a load balancer). Default false. */
  readonly trustProxy?: FastifyServerOptions["trustProxy"];
}
