/**
 * One OIDC provider as a client of it, through `openid-client` (discovery,
 * authorization URL with PKCE S256, code exchange, id_token validation).
 */
import type { Logger } from "@deerflow/kernel";
import * as client from "openid-client";
import { GatewayError } from "../../errors.js";
import type { OidcIdentity } from "./oidc-identity.js";
import { OidcLoginError } from "./oidc-login-error.js";
import { DEFAULT_OIDC_SCOPES, type OidcProviderOptions } from "./oidc-options.js";

/** The 502 detail when a provider cannot be reached or its discovery document is wrong (DeerFlow's text). */
export const PROVIDER_UNREACHABLE_MESSAGE = "Failed to connect to SSO provider";

/** How long a discovery document is reused before it is read again (key rotation is handled by the JWKS cache). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/** What the callback checks the provider's answer against (from the state cookie). */
export interface OidcCallbackChecks {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether plain HTTP to `issuer` is allowed: only on a loopback host. */
function insecureAllowed(issuer: URL): boolean {
  return issuer.protocol === "http:" && LOOPBACK_HOSTS.has(issuer.hostname);
}

function clientAuth(options: OidcProviderOptions): client.ClientAuth {
  switch (options.tokenEndpointAuthMethod ?? "client_secret_post") {
    case "client_secret_basic":
      return client.ClientSecretBasic(options.clientSecret);
    case "none":
      return client.None();
    default:
      return client.ClientSecretPost(options.clientSecret);
  }
}

/**
 * A provider's client: discovery is done on first use, cached for an hour, and
 * retried at the next login when it failed.
 */
export class OidcProviderClient {
  readonly #id: string;
  readonly #options: OidcProviderOptions;
  readonly #issuer: URL;
  readonly #timeoutSeconds: number;
  readonly #logger: Logger;
  #config: { readonly at: number; readonly promise: Promise<client.Configuration> } | undefined;

  /**
   * @param id - provider id (config key).
   * @param options - the provider's settings.
   * @param timeoutSeconds - time limit of each request to the provider.
   * @param logger - where discovery and validation failures are reported.
   * @throws GatewayError `CONFIG_INVALID` for an issuer that is not an https URL (or http on loopback),
   *   a missing client secret with a secret-based method, or scopes without `openid`.
   */
  constructor(id: string, options: OidcProviderOptions, timeoutSeconds: number, logger: Logger) {
    this.#id = id;
    this.#options = options;
    this.#timeoutSeconds = timeoutSeconds;
    this.#logger = logger;
    let issuer: URL;
    try {
      issuer = new URL(options.issuer);
    } catch {
      throw new GatewayError("CONFIG_INVALID", `OIDC provider ${id}: issuer is not a URL`);
    }
    if (issuer.protocol !== "https:" && !insecureAllowed(issuer)) {
      throw new GatewayError("CONFIG_INVALID", `OIDC provider ${id}: issuer must be https (http only on localhost)`);
    }
    if ((options.tokenEndpointAuthMethod ?? "client_secret_post") !== "none" && !options.clientSecret) {
      throw new GatewayError("CONFIG_INVALID", `OIDC provider ${id}: client_secret is required`);
    }
    if (options.scopes !== undefined && !options.scopes.includes("openid")) {
      throw new GatewayError("CONFIG_INVALID", `OIDC provider ${id}: scopes must include openid`);
    }
    this.#issuer = issuer;
  }

  /** The provider's settings. */
  get options(): OidcProviderOptions {
    return this.#options;
  }

  /** The discovered configuration; a failure answers 502 and is forgotten so the next login retries. */
  async #configuration(now: number = Date.now()): Promise<client.Configuration> {
    if (this.#config === undefined || now - this.#config.at > DISCOVERY_TTL_MS) {
      const promise = client.discovery(this.#issuer, this.#options.clientId, undefined, clientAuth(this.#options), {
        timeout: this.#timeoutSeconds,
        // Signatures of id_tokens are checked against the provider's JWKS even though they
        // come straight from the token endpoint: defence in depth if TLS is terminated oddly.
        execute: insecureAllowed(this.#issuer)
          ? [client.allowInsecureRequests, client.enableNonRepudiationChecks]
          : [client.enableNonRepudiationChecks],
      });
      const entry = { at: now, promise };
      this.#config = entry;
      promise.catch(() => {
        if (this.#config === entry) this.#config = undefined;
      });
    }
    try {
      return await this.#config.promise;
    } catch (error) {
      this.#logger.error({ provider: this.#id, err: error }, "OIDC discovery failed");
      throw new GatewayError("BAD_GATEWAY", PROVIDER_UNREACHABLE_MESSAGE, { cause: error });
    }
  }

  /**
   * The provider's authorization URL for a login attempt (code flow, PKCE S256, state, nonce).
   *
   * @throws GatewayError `BAD_GATEWAY` when discovery fails.
   */
  async authorizationUrl(redirectUri: string, checks: OidcCallbackChecks): Promise<URL> {
    const config = await this.#configuration();
    return client.buildAuthorizationUrl(config, {
      response_type: "code",
      redirect_uri: redirectUri,
      scope: (this.#options.scopes ?? DEFAULT_OIDC_SCOPES).join(" "),
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: "S256",
    });
  }

  /**
   * Finishes a login: exchanges the code and validates the id_token (signature by
   * the provider's JWKS, issuer, audience, expiry, nonce); the email comes from the
   * id_token, else from the userinfo endpoint (whose `sub` must match).
   *
   * @param redirectUri - the same redirect URI the authorization request carried.
   * @param query - the callback's query parameters (`code`, `state`, `iss`...).
   * @throws GatewayError `BAD_GATEWAY` when discovery fails; OidcLoginError `AUTHENTICATION_FAILED` otherwise.
   */
  async authenticate(redirectUri: string, query: URLSearchParams, checks: OidcCallbackChecks): Promise<OidcIdentity> {
    const config = await this.#configuration();
    const currentUrl = new URL(redirectUri);
    currentUrl.search = query.toString();
    let claims: client.IDToken | undefined;
    let accessToken: string;
    try {
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
      accessToken = tokens.access_token;
    } catch (error) {
      throw new OidcLoginError("AUTHENTICATION_FAILED", `OIDC code exchange or id_token validation failed`, {
        cause: error,
      });
    }
    if (claims === undefined) throw new OidcLoginError("AUTHENTICATION_FAILED", "Token response has no id_token");
    let email = typeof claims["email"] === "string" ? claims["email"] : "";
    let emailVerified = claims["email_verified"] === true;
    let name = typeof claims["name"] === "string" ? claims["name"] : undefined;
    if (email === "" && config.serverMetadata().userinfo_endpoint !== undefined) {
      try {
        const info = await client.fetchUserInfo(config, accessToken, claims.sub);
        email = typeof info.email === "string" ? info.email : "";
        emailVerified = info.email_verified === true;
        name ??= typeof info.name === "string" ? info.name : undefined;
      } catch (error) {
        this.#logger.warn({ provider: this.#id, err: error }, "OIDC userinfo failed; using the id_token alone");
      }
    }
    return {
      provider: this.#id,
      subject: claims.sub,
      email,
      emailVerified,
      ...(name === undefined ? {} : { name }),
    };
  }
}
