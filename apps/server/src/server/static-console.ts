/**
 * The web console (`apps/web`, a Vite + React build) served at `/`, and
 * `GET /api/info`, the facts the console needs before its first API call.
 *
 * The console's files hold no data, so they are served **before** the
 * gateway's API-key check: with `server.api_keys` set, the page still loads
 * and asks for a key. A second, small Fastify instance (`@fastify/static`)
 * answers `GET`/`HEAD` requests outside `/api` (and `GET /api/info`); every
 * other request goes to the gateway unchanged. The gateway's own root routes
 * (`/health`, `/ok`, `/openapi.json`) stay with the gateway.
 *
 * Caching: hashed files under `/assets/` are immutable for a year; `index.html`
 * (served for `/` and, as the single-page app fallback, for any extension-less
 * path) is `no-cache` and carries a Content-Security-Policy that allows only
 * this origin. A missing build answers `503` with the command that builds it.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from "fastify";
import type { LoadedConfig } from "../config/load-config.js";
import type { ServerLogger } from "./logger.js";

/** What `GET /api/info` answers (open, no API key needed). */
export interface ConsoleInfo {
  /** The server's version (`apps/server/package.json`). */
  readonly version: string;
  /** True when the default model is the offline demo model (the console shows a banner). */
  readonly demoModel: boolean;
  /** Name of the default model. */
  readonly defaultModel: string;
  /** True when `server.api_keys` is set: every `/api` call needs `Authorization: Bearer <key>` or `X-API-Key`. */
  readonly authRequired: boolean;
}

/** Options of {@link mountConsole}. */
export interface MountConsoleOptions {
  /** The facts of `GET /api/info`. */
  readonly info: ConsoleInfo;
  readonly logger?: ServerLogger;
  /**
   * The built console (a folder holding `index.html`). Default: {@link resolveConsoleDir}.
   * `false` serves no console (`/` is left to the gateway: 404, or 401 with authentication).
   */
  readonly distDir?: string | false;
  /** Environment for `DEERFLOW_CONSOLE_DIR`. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

/** A mounted console. */
export interface MountedConsole {
  /** The folder served, or `undefined` when no build was found (`/` answers 503). */
  readonly distDir: string | undefined;
}

/** Root paths of the gateway that are never the console's. */
const GATEWAY_ROOT_PATHS: ReadonlySet<string> = new Set(["/health", "/ok", "/openapi.json"]);

/** The `GET /api/info` path. */
export const INFO_PATH = "/api/info";

/** Cache policy of hashed build files (`/assets/<name>-<hash>.<ext>`). */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** Only this origin: no CDN, no external fonts or scripts; frames of the console are refused. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The 503 text when the console has not been built. */
export const CONSOLE_NOT_BUILT_MESSAGE =
  "The DeerFlow web console is not built.\n" +
  "Build it with `pnpm --filter @deerflow/web build` (or `pnpm build` at the repository root), then restart the server.\n" +
  "The API is served under /api; GET /health reports readiness.\n";

function pathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const q = raw.indexOf("?");
  return q === -1 ? raw : raw.slice(0, q);
}

/**
 * Whether a request is the console's: `GET`/`HEAD` outside `/api` (except the
 * gateway's root routes), or `GET /api/info`.
 *
 * @param method - the HTTP method
 * @param url - the request URL (path and query)
 */
export function isConsoleRequest(method: string | undefined, url: string | undefined): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const p = pathOf(url);
  if (p === INFO_PATH) return true;
  if (p === "/api" || p.startsWith("/api/")) return false;
  return !GATEWAY_ROOT_PATHS.has(p);
}

function hasIndex(dir: string): boolean {
  return existsSync(path.join(dir, "index.html"));
}

/**
 * Finds the built console: `DEERFLOW_CONSOLE_DIR`; a `console/` folder next to
 * the server's `dist/` (the Docker image); the `dist/` of the `@deerflow/web`
 * workspace package; `apps/web/dist` above this module (source and built server
 * in the repository).
 *
 * @param env - environment (for `DEERFLOW_CONSOLE_DIR`)
 * @returns the first folder holding `index.html`, or `undefined`
 */
export function resolveConsoleDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env["DEERFLOW_CONSOLE_DIR"];
  if (explicit !== undefined && explicit !== "") return hasIndex(explicit) ? path.resolve(explicit) : undefined;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates: string[] = [];
  // src/server/static-console.ts → apps/server; dist/main.js → apps/server (or /app in the image).
  for (let dir = here, i = 0; i < 4; i += 1, dir = path.dirname(dir)) candidates.push(path.join(dir, "console"));
  try {
    const pkg = createRequire(import.meta.url).resolve("@deerflow/web/package.json");
    candidates.push(path.join(path.dirname(pkg), "dist"));
  } catch {
    // Not installed (production deploys leave dev dependencies out).
  }
  for (let dir = here, i = 0; i < 5; i += 1, dir = path.dirname(dir)) candidates.push(path.join(dir, "apps", "web", "dist"), path.join(dir, "web", "dist"));
  return candidates.find(hasIndex);
}

/**
 * The facts of `GET /api/info` for a loaded configuration.
 *
 * @param loaded - the configuration
 * @returns version, demo model flag, default model, authentication flag
 */
export function consoleInfo(loaded: LoadedConfig): ConsoleInfo {
  const { config } = loaded;
  const model = config.models.find((m) => m.name === config.defaultModel);
  return {
    version: serverVersion(),
    demoModel: model?.use.kind === "demo",
    defaultModel: config.defaultModel,
    authRequired: config.server.apiKeys.length > 0,
  };
}

let cachedVersion: string | undefined;

/** The `version` of `@deerflow/server`'s package.json (found above this module; `0.0.0` if none). */
export function serverVersion(): string {
  if (cachedVersion !== undefined) return cachedVersion;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i += 1, dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "@deerflow/server" && typeof pkg.version === "string") return (cachedVersion = pkg.version);
    } catch {
      // No package.json here.
    }
  }
  return (cachedVersion = "0.0.0");
}

const infoSchema = {
  type: "object",
  required: ["version", "demoModel", "defaultModel", "authRequired"],
  properties: {
    version: { type: "string" },
    demoModel: { type: "boolean", description: "The default model is the offline demo model." },
    defaultModel: { type: "string" },
    authRequired: { type: "boolean", description: "API calls need a key (Authorization: Bearer or X-API-Key)." },
  },
} as const;

/**
 * `GET /info` as a gateway route plugin (mounted under `/api`): documents the
 * route in `/openapi.json` and serves `app.inject`. Over HTTP the console front
 * answers it first, without a key.
 *
 * @param info - the facts to answer
 */
export function infoRoutes(info: ConsoleInfo): FastifyPluginAsync {
  return async (api) => {
    api.get("/info", { schema: { summary: "Server facts for the web console (open over HTTP: no key needed)", tags: ["console"], response: { 200: infoSchema } } }, async () => info);
  };
}

function sendIndex(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-cache").header("content-security-policy", CONSOLE_CSP).header("x-content-type-options", "nosniff").sendFile("index.html");
}

/** An extension-less path is a console page (`/chat/abc`); `/assets/x.js` that is missing is a 404. */
function isPagePath(p: string): boolean {
  const last = p.slice(p.lastIndexOf("/") + 1);
  return !last.includes(".") && !p.startsWith("/assets/");
}

async function buildSite(info: ConsoleInfo, distDir: string | undefined, logger: ServerLogger | undefined): Promise<FastifyInstance> {
  const site: FastifyInstance = Fastify(logger === undefined ? { logger: false } : { loggerInstance: logger as FastifyBaseLogger });
  site.get(INFO_PATH, async (_request, reply) => reply.header("cache-control", "no-store").send(info));

  if (distDir === undefined) {
    const notBuilt = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(503).header("cache-control", "no-store").type("text/plain; charset=utf-8").send(CONSOLE_NOT_BUILT_MESSAGE);
    site.get("/", notBuilt);
    site.setNotFoundHandler(notBuilt);
    await site.ready();
    return site;
  }

  await site.register(fastifyStatic, {
    root: distDir,
    prefix: "/",
    index: false,
    wildcard: true,
    cacheControl: false,
    dotfiles: "ignore",
    setHeaders: (reply, file) => {
      const rel = path.relative(distDir, file).split(path.sep).join("/");
      reply.header("x-content-type-options", "nosniff");
      if (rel.startsWith("assets/")) reply.header("cache-control", IMMUTABLE);
      else reply.header("cache-control", "no-cache");
      if (rel === "index.html") reply.header("content-security-policy", CONSOLE_CSP);
    },
  });
  site.get("/", async (_request, reply) => sendIndex(reply));
  site.setNotFoundHandler(async (request, reply) => {
    if (isPagePath(pathOf(request.url))) return sendIndex(reply);
    return reply.code(404).type("text/plain; charset=utf-8").send("Not Found\n");
  });
  await site.ready();
  return site;
}

/**
 * Serves the web console and `GET /api/info` in front of the gateway `app`
 * (see the module comment). Call it before `app.listen()`.
 *
 * @param app - the gateway (its HTTP server's request listener is wrapped)
 * @param options - the info facts, logger, console folder
 * @returns the folder served (or `undefined` when the console is missing and `/` answers 503)
 * @example
 * ```ts
 * const app = await createGateway(options);
 * await app.register(infoRoutes(consoleInfo(loaded)), { prefix: "/api" });
 * const { distDir } = await mountConsole(app, { info: consoleInfo(loaded), logger });
 * ```
 */
export async function mountConsole(app: FastifyInstance, options: MountConsoleOptions): Promise<MountedConsole> {
  if (options.distDir === false) return { distDir: undefined };
  const distDir = options.distDir === undefined ? resolveConsoleDir(options.env) : hasIndex(options.distDir) ? path.resolve(options.distDir) : undefined;
  if (distDir === undefined) {
    options.logger?.warn({ event: "config" }, `web console: not built; / answers 503 (${CONSOLE_NOT_BUILT_MESSAGE.split("\n")[1] ?? ""})`);
  } else {
    options.logger?.info({ event: "config", consoleDir: distDir }, `web console: served at / from ${distDir}`);
  }
  const site = await buildSite(options.info, distDir, options.logger);
  const server = app.server;
  const gatewayListeners = server.listeners("request") as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  for (const listener of gatewayListeners) server.removeListener("request", listener);
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (isConsoleRequest(req.method, req.url)) {
      site.routing(req, res);
      return;
    }
    for (const listener of gatewayListeners) listener(req, res);
  });
  app.addHook("onClose", async () => {
    await site.close();
  });
  return { distDir };
}
