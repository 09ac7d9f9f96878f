/**
 * OIDC login routes (DeerFlow's `/api/v1/auth/oauth/{provider}` and
 * `/api/v1/auth/callback/{provider}`), answered without a key: they are how a
 * browser without a session gets one.
 *
 * - `GET /api/v1/auth/oauth/:provider?next=/path&remember_me=true` → 302 to the
 *   provider, with a signed state cookie (state, nonce, PKCE verifier, next).
 * - `GET /api/v1/auth/callback/:provider?code&state` → checks the state cookie,
 *   exchanges the code, validates the id_token, provisions the account, starts a
 *   session through the accounts' session issuer and redirects to the console
 *   (`frontendBaseUrl` + `next`). Refusals after the provider's answer redirect to
 *   `<frontend>/login?error=sso_failed|sso_not_allowed|sso_account_exists`.
 *
 * Only same-site paths are accepted as `next`, so neither route is an open redirect.
 */
import { timingSafeEqual } from "node:crypto";
import { silentLogger, type Logger } from "@deerflow/kernel";
import { serialize } from "cookie";
import * as client from "openid-client";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { GatewayError } from "../../errors.js";
import { anonymousRoute } from "../anonymous-route.js";
import { requestCookies } from "../auth-cookies.js";
import type { AccountsRoutePlugin, OidcProviderInfo } from "../accounts-options.js";
import { isSecureRequest } from "../session-settings.js";
import { OidcLoginError, type OidcRedirectErrorCode } from "./oidc-login-error.js";
import { OIDC_PROVIDER_ID_PATTERN, type OidcSettings } from "./oidc-options.js";
import { OidcProviderClient } from "./oidc-provider-client.js";
import {
  OIDC_STATE_MAX_AGE_SECONDS,
  deriveOidcStateKey,
  oidcStateCookieName,
  oidcStateCookiePath,
  signOidcState,
  verifyOidcState,
} from "./oidc-state-cookie.js";
import { provisionOidcUser } from "./provision-oidc-user.js";
import { safeNextPath } from "./safe-next-path.js";

/** DeerFlow's texts. */
export const SSO_DISABLED_MESSAGE = "SSO authentication is not enabled";
export const INVALID_PROVIDER_MESSAGE = "Invalid provider ID";
export const MISSING_CODE_OR_STATE_MESSAGE = "Missing code or state parameter";
export const MISSING_STATE_COOKIE_MESSAGE = "Missing or expired OIDC state cookie";
export const STATE_MISMATCH_MESSAGE = "OIDC state mismatch";

/** Where a login lands when no `next` was given. */
export const DEFAULT_NEXT_PATH = "/";

/** Default time limit of a request to a provider, in seconds. */
export const DEFAULT_OIDC_TIMEOUT_SECONDS = 15;

/** Options of {@link createOidcLogin}. */
export interface OidcLoginOptions {
  /** OIDC settings; absent or `enabled: false` → the routes answer 404 {@link SSO_DISABLED_MESSAGE}. */
  readonly settings: OidcSettings | undefined;
  /** The server secret (the accounts' session secret); the state cookie's key is derived from it. */
  readonly secret: string | Uint8Array;
  /** Always send the state cookie with `Secure` (`auth.cookie_secure`). Default false. */
  readonly cookieSecure?: boolean;
  /** Reports failed logins (never shown to the browser). */
  readonly logger?: Logger;
  /** The clock in epoch milliseconds (tests move it). */
  readonly now?: () => number;
}

/** OIDC login, ready to plug into `GatewayOptions.accounts`. */
export interface OidcLogin {
  /** The enabled providers for `GET /api/v1/auth/providers` (`accounts.oidcProviders`). */
  readonly providers: () => readonly OidcProviderInfo[];
  /** The login and callback routes (one of `accounts.routes`). */
  readonly routes: AccountsRoutePlugin;
}

/**
 * The enabled providers as the login page lists them (no secret, no endpoint).
 *
 * @param settings - the OIDC settings; none or disabled → `[]`.
 */
export function listOidcProviders(settings: OidcSettings | undefined): OidcProviderInfo[] {
  if (settings === undefined || !settings.enabled) return [];
  return Object.entries(settings.providers).map(([id, p]) => ({ id, display_name: p.displayName }));
}

const providerParams = {
  type: "object",
  properties: { provider: { type: "string", maxLength: 256 } },
  required: ["provider"],
} as const;

const loginQuery = {
  type: "object",
  properties: {
    next: { type: "string", maxLength: 4096, description: "Same-site path to land on after login." },
    remember_me: { type: "boolean", default: true, description: "Persistent session cookie." },
  },
} as const;

const callbackQuery = {
  type: "object",
  properties: {
    code: { type: "string", maxLength: 4096 },
    state: { type: "string", maxLength: 1024 },
    error: { type: "string", maxLength: 1024 },
    error_description: { type: "string", maxLength: 4096 },
  },
} as const;

const redirectResponse = { 302: { description: "Redirect (Location header)", type: "null" } } as const;

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * OIDC login for the gateway's accounts (see the module comment). Providers are
 * checked here; discovery happens at the first login.
 *
 * @throws GatewayError `CONFIG_INVALID` for a provider id outside `[A-Za-z0-9_-]`, an issuer
 *   that is not https (http only on loopback), a secret-based method without a secret,
 *   or a `frontendBaseUrl` that is not an http(s) origin.
 * @example
 * ```ts
 * const oidc = createOidcLogin({ settings, secret });
 * const app = await createGateway({
 *   accounts: { store, secret, oidcProviders: oidc.providers, routes: [oidc.routes] },
 * });
 * ```
 */
export function createOidcLogin(options: OidcLoginOptions): OidcLogin {
  const settings = options.settings?.enabled === true ? options.settings : undefined;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? Date.now;
  const key = deriveOidcStateKey(options.secret);
  const frontend = frontendBase(settings?.frontendBaseUrl);
  const clients = new Map<string, OidcProviderClient>();
  for (const [id, provider] of Object.entries(settings?.providers ?? {})) {
    if (!OIDC_PROVIDER_ID_PATTERN.test(id)) {
      throw new GatewayError("CONFIG_INVALID", `OIDC provider id ${JSON.stringify(id)}: use letters, digits, _ and -`);
    }
    clients.set(
      id,
      new OidcProviderClient(id, provider, settings?.timeoutSeconds ?? DEFAULT_OIDC_TIMEOUT_SECONDS, logger),
    );
  }

  function providerOf(id: string): OidcProviderClient {
    if (settings === undefined) throw new GatewayError("NOT_FOUND", SSO_DISABLED_MESSAGE);
    if (!OIDC_PROVIDER_ID_PATTERN.test(id)) throw new GatewayError("BAD_REQUEST", INVALID_PROVIDER_MESSAGE);
    const found = clients.get(id);
    if (found === undefined) throw new GatewayError("BAD_REQUEST", `Unknown SSO provider: ${id}`);
    return found;
  }

  function redirectUriOf(request: FastifyRequest, app: FastifyInstance, provider: OidcProviderClient, id: string) {
    return (
      provider.options.redirectUri ?? `${request.protocol}://${request.host}${oidcStateCookiePath(app.prefix, id)}`
    );
  }

  function setStateCookie(
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    path: string,
    value: string,
    maxAge: number,
  ): void {
    reply.header(
      "set-cookie",
      serialize(name, value, {
        path,
        httpOnly: true,
        secure: isSecureRequest(request, options.cookieSecure ?? false),
        sameSite: "lax",
        maxAge,
      }),
    );
  }

  function failed(reply: FastifyReply, code: OidcRedirectErrorCode): FastifyReply {
    return reply.redirect(`${frontend}/login?error=${code}`, 302);
  }

  const routes: AccountsRoutePlugin = async (app, { store, issuer }) => {
    const statePath = (id: string) => oidcStateCookiePath(app.prefix, id);

    app.get<{ Params: { provider: string }; Querystring: { next?: string; remember_me: boolean } }>(
      "/oauth/:provider",
      {
        config: anonymousRoute(),
        schema: {
          tags: ["auth"],
          summary: "Start an SSO login: redirect to the OIDC provider",
          params: providerParams,
          querystring: loginQuery,
          response: redirectResponse,
        },
      },
      async (request, reply) => {
        const id = request.params.provider;
        const provider = providerOf(id);
        const checks = {
          state: client.randomState(),
          nonce: client.randomNonce(),
          codeVerifier: client.randomPKCECodeVerifier(),
        };
        const url = await provider.authorizationUrl(redirectUriOf(request, app, provider, id), checks);
        const cookie = signOidcState(key, {
          provider: id,
          ...checks,
          nextPath: safeNextPath(request.query.next) ?? DEFAULT_NEXT_PATH,
          rememberMe: request.query.remember_me,
          issuedAt: Math.floor(now() / 1000),
        });
        setStateCookie(request, reply, oidcStateCookieName(id), statePath(id), cookie, OIDC_STATE_MAX_AGE_SECONDS);
        return reply.redirect(url.href, 302);
      },
    );

    app.get<{ Params: { provider: string }; Querystring: { code?: string; state?: string; error?: string } }>(
      "/callback/:provider",
      {
        config: anonymousRoute(),
        schema: {
          tags: ["auth"],
          summary: "Finish an SSO login: validate the provider's answer, sign in, redirect to the console",
          params: providerParams,
          querystring: callbackQuery,
          response: redirectResponse,
        },
      },
      async (request, reply) => {
        const id = request.params.provider;
        const provider = providerOf(id);
        const cookieName = oidcStateCookieName(id);
        const clearState = () => setStateCookie(request, reply, cookieName, statePath(id), "", 0);
        const { code, state, error } = request.query;
        if (error !== undefined) {
          logger.warn({ provider: id, error }, "OIDC provider refused the authorization");
          clearState();
          return failed(reply, "sso_failed");
        }
        if (code === undefined || code === "" || state === undefined || state === "") {
          throw new GatewayError("BAD_REQUEST", MISSING_CODE_OR_STATE_MESSAGE);
        }
        const login = verifyOidcState(key, requestCookies(request)[cookieName], id, now());
        if (login === undefined) throw new GatewayError("FORBIDDEN", MISSING_STATE_COOKIE_MESSAGE);
        if (!sameString(login.state, state)) throw new GatewayError("FORBIDDEN", STATE_MISMATCH_MESSAGE);
        // The attempt is spent whatever happens next: a second callback with it must start over.
        clearState();
        const query = new URLSearchParams(request.url.slice(request.url.indexOf("?") + 1));
        try {
          const identity = await provider.authenticate(redirectUriOf(request, app, provider, id), query, login);
          const { user, created } = await provisionOidcUser(store, provider.options, identity);
          await issuer.issue(request, reply, user, { rememberMe: login.rememberMe });
          logger.info({ provider: id, userId: user.userId, created }, "OIDC login");
        } catch (failure) {
          if (!OidcLoginError.isInstance(failure)) throw failure;
          logger.warn(
            { provider: id, code: failure.code, err: failure.cause ?? failure.message },
            "OIDC login refused",
          );
          return failed(reply, failure.redirectCode);
        }
        return reply.redirect(`${frontend}${safeNextPath(login.nextPath) ?? DEFAULT_NEXT_PATH}`, 302);
      },
    );
  };
  return { providers: () => listOidcProviders(settings), routes };
}

/**
 * The console's origin for redirects: `""` (same origin) when not configured.
 *
 * @throws GatewayError `CONFIG_INVALID` for anything but an http(s) origin.
 */
function frontendBase(url: string | undefined): string {
  if (url === undefined || url === "") return "";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GatewayError("CONFIG_INVALID", "auth.oidc.frontend_base_url is not a URL");
  }
  if ((parsed.protocol !== "https:" && parsed.protocol !== "http:") || parsed.username !== "" || parsed.search !== "") {
    throw new GatewayError("CONFIG_INVALID", "auth.oidc.frontend_base_url must be an http(s) URL");
  }
  return parsed.href.replace(/\/+$/, "");
}
