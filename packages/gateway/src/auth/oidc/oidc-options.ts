/**
 * Configuration of OIDC (OpenID Connect) login: the providers and how their
 * users become accounts. The server maps `auth.oidc` of config.yaml onto these.
 */

/** How the client authenticates at a provider's token endpoint. */
export type TokenEndpointAuthMethod = "client_secret_post" | "client_secret_basic" | "none";

/** One identity provider (Keycloak, Google, Entra ID, Authentik...). */
export interface OidcProviderOptions {
  /** Text of the login button. */
  readonly displayName: string;
  /**
   * Issuer URL; the discovery document is read from `<issuer>/.well-known/openid-configuration`
   * and its `issuer` must equal this. `https:` is required except on a loopback host
   * (`http://127.0.0.1:…`, `http://localhost:…`), for local development and tests.
   */
  readonly issuer: string;
  /** OAuth client id registered at the provider (the id_token's expected audience). */
  readonly clientId: string;
  /** Client secret (needed unless `tokenEndpointAuthMethod` is `none`). */
  readonly clientSecret?: string;
  /**
   * The callback URL registered at the provider. Default: the request's own origin
   * (Fastify's `trustProxy` decides whether forwarded headers count) +
   * `/api/v1/auth/callback/<id>`. Set it in production.
   */
  readonly redirectUri?: string;
  /** Scopes requested; `openid` is always included. Default `["openid", "email", "profile"]`. */
  readonly scopes?: readonly string[];
  /** Default `client_secret_post`, as DeerFlow. */
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** Create an account at the first login of an unknown identity. Default true. */
  readonly autoCreateUsers?: boolean;
  /** Refuse a new identity whose `email_verified` is not `true`. Default true. */
  readonly requireVerifiedEmail?: boolean;
  /** When non-empty, only emails of these domains may sign up (case-insensitive, a leading `@` ignored). */
  readonly allowedEmailDomains?: readonly string[];
  /** Emails that get the `admin` role when their account is created. Default none. */
  readonly adminEmails?: readonly string[];
}

/** OIDC login as a whole. */
export interface OidcSettings {
  /** Off: the login routes answer 404 "SSO authentication is not enabled" and no provider is listed. */
  readonly enabled: boolean;
  /**
   * Origin of the web console when it is not served by this server (for example
   * `https://deerflow.example.com`): where the browser goes after the callback.
   * Default: the same origin (a relative redirect).
   */
  readonly frontendBaseUrl?: string;
  /** Providers by id (`[A-Za-z0-9_-]+`, used in the routes' paths). */
  readonly providers: Readonly<Record<string, OidcProviderOptions>>;
  /** Time limit of each request to a provider, in seconds. Default 15. */
  readonly timeoutSeconds?: number;
}

/** Default scopes. */
export const DEFAULT_OIDC_SCOPES: readonly string[] = Object.freeze(["openid", "email", "profile"]);

/** Provider ids allowed in paths and cookie names. */
export const OIDC_PROVIDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
