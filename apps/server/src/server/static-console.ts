/**
 * The web console (`apps/web`, a Vite + React build) served at `/`, and
 * `GET /api/info`, the facts the console needs before its first API call.
 *
 * The console's files hold no data, so they are a public route plugin of the
 * gateway (`createGateway({ publicRoutes })`): with `server.api_keys` set, the
 * page still loads and asks for a key. It answers `GET`/`HEAD` requests outside
 * `/api` that no gateway route takes, and `GET /api/info`; the gateway keeps
 * its own root routes (`/health`, `/ok`, `/openapi.json`) and every path under
 * `/api` (an unknown one is the API's 401 or 404, never a console page).
 *
 * Caching: hashed files under `/assets/` are immutable for a year; `index.html`
 * (served for `/` and, as the single-page app fallback, for any extension-less
 * path) is `no-cache` and carries a Content-Security-Policy that allows only
 * this origin. A missing build answers `503` with the command that builds it.
 */
import { existsSync, readFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, FastifySchema } from "fastify";
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
  /** True when `server.api_keys` is set or accounts are on: every `/api` call needs credentials. */
  readonly authRequired: boolean;
  /** True when accounts are on (`auth.enabled`): the console signs in with a session cookie and sends CSRF tokens. */
  readonly accounts: boolean;
}

/** Options of {@link consoleRoutes}. */
export interface ConsoleRoutesOptions {
  /** The facts of `GET /api/info`. */
  readonly info: ConsoleInfo;
  readonly logger?: ServerLogger;
  /**
   * The built console (a folder holding `index.html`). Default: {@link resolveConsoleDir}.
   * `false` serves no console (`/` is left to the gateway: 404, or 401 with authentication);
   * `GET /api/info` is served all the same.
   */
  readonly distDir?: string | false;
  /** Environment for `DEERFLOW_CONSOLE_DIR`. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
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
  for (let dir = here, i = 0; i < 5; i += 1, dir = path.dirname(dir))
    candidates.push(path.join(dir, "apps", "web", "dist"), path.join(dir, "web", "dist"));
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
    authRequired: config.server.apiKeys.length > 0 || config.auth?.enabled === true,
    accounts: config.auth?.enabled === true,
  };
}

let cachedVersion: string | undefined;

/** The `version` of `@deerflow/server`'s package.json (found above this module; `0.0.0` if none). */
function serverVersion(): string {
  if (cachedVersion !== undefined) return cachedVersion;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i += 1, dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "@deerflow/server" && typeof pkg.version === "string") return (cachedVersion = pkg.version);
    } catch {
      // No package.json here.
    }
  }
  return (cachedVersion = "0.0.0");
}

const infoSchema = {
  type: "object",
  required: ["version", "demoModel", "defaultModel", "authRequired", "accounts"],
  properties: {
    version: { type: "string" },
    demoModel: { type: "boolean", description: "The default model is the offline demo model." },
    defaultModel: { type: "string" },
    authRequired: { type: "boolean", description: "API calls need a key (Authorization: Bearer or X-API-Key)." },
    accounts: { type: "boolean", description: "Accounts are on: sign in at /api/v1/auth/login/local (cookie + CSRF)." },
  },
} as const;

/** The console's pages are not API: kept out of the OpenAPI document (`hide` is `@fastify/swagger`'s). */
const UNDOCUMENTED = { schema: { hide: true } as FastifySchema };

function sendIndex(reply: FastifyReply): FastifyReply {
  return reply
    .header("cache-control", "no-cache")
    .header("content-security-policy", CONSOLE_CSP)
    .header("x-content-type-options", "nosniff")
    .sendFile("index.html");
}

/** An extension-less path is a console page (`/chat/abc`); `/assets/x.js` that is missing is a 404. */
function isPagePath(p: string): boolean {
  const last = p.slice(p.lastIndexOf("/") + 1);
  return !last.includes(".") && !p.startsWith("/assets/");
}

/**
 * The build file a URL path names, relative to `distDir`, if it is a file. A segment
 * starting with `.` (dotfiles, and so `..`) names nothing, as `@fastify/static`'s
 * `dotfiles: "ignore"` has it: nothing outside `distDir` is reachable.
 */
async function buildFileOf(distDir: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const segments = decoded.split("/").filter((segment) => segment !== "");
  if (
    segments.length === 0 ||
    segments.some((segment) => segment.startsWith(".") || segment.includes("\\") || segment.includes("\0"))
  )
    return undefined;
  const rel = segments.join("/");
  const info = await stat(path.join(distDir, rel)).catch(() => undefined);
  return info?.isFile() === true ? rel : undefined;
}

/** `GET /` and `GET /*` of a built console: its files, else the page fallback, else a 404. */
async function serveBuild(site: Parameters<FastifyPluginAsync>[0], distDir: string): Promise<void> {
  await site.register(fastifyStatic, {
    root: distDir,
    serve: false,
    index: false,
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
  site.get("/", UNDOCUMENTED, async (_request, reply) => sendIndex(reply));
  site.get("/*", UNDOCUMENTED, async (request, reply) => {
    if (!isConsoleRequest(request.method, request.url)) return reply.callNotFound();
    const p = pathOf(request.url);
    const file = await buildFileOf(distDir, p);
    if (file !== undefined) return reply.sendFile(file);
    if (isPagePath(p)) return sendIndex(reply);
    return reply.code(404).type("text/plain; charset=utf-8").send("Not Found\n");
  });
}

/**
 * The web console and `GET /api/info` as a public route plugin of the gateway
 * (see the module comment): pass it in `createGateway({ publicRoutes })`.
 *
 * @param options - the info facts, logger, console folder
 * @returns the plugin (it logs where the console is served from when registered)
 * @example
 * ```ts
 * const app = await createGateway({ ...options, publicRoutes: [consoleRoutes({ info: consoleInfo(loaded), logger })] });
 * ```
 */
export function consoleRoutes(options: ConsoleRoutesOptions): FastifyPluginAsync {
  const { info, logger } = options;
  return async (site) => {
    site.get(
      INFO_PATH,
      {
        schema: {
          summary: "Server facts for the web console (open: no key needed)",
          tags: ["console"],
          response: { 200: infoSchema },
        },
      },
      async (_request, reply) => reply.header("cache-control", "no-store").send(info),
    );
    if (options.distDir === false) return;
    const distDir =
      options.distDir === undefined
        ? resolveConsoleDir(options.env)
        : hasIndex(options.distDir)
          ? path.resolve(options.distDir)
          : undefined;
    if (distDir !== undefined) {
      logger?.info({ event: "config", consoleDir: distDir }, `web console: served at / from ${distDir}`);
      await serveBuild(site, distDir);
      return;
    }
    logger?.warn(
      { event: "config" },
      `web console: not built; / answers 503 (${CONSOLE_NOT_BUILT_MESSAGE.split("\n")[1] ?? ""})`,
    );
    const notBuilt = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(503)
        .header("cache-control", "no-store")
        .type("text/plain; charset=utf-8")
        .send(CONSOLE_NOT_BUILT_MESSAGE);
    site.get("/", UNDOCUMENTED, notBuilt);
    site.get("/*", UNDOCUMENTED, async (request, reply) =>
      isConsoleRequest(request.method, request.url) ? notBuilt(request, reply) : reply.callNotFound(),
    );
  };
}
