/**
 * Resolves `auth.oidc:` of `config.yaml` into the gateway's OIDC settings:
 * DeerFlow's defaults (scopes `openid email profile`, `client_secret_post`,
 * auto-created users, verified emails required) and the checks the schema
 * cannot make, each reported at its key path.
 */
import type { OidcProviderOptions, OidcSettings } from "@deerflow/gateway";

type Doc = Record<string, unknown>;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}

function resolveProvider(id: string, p: Doc, problem: (path: string, message: string) => void): OidcProviderOptions {
  const at = `auth.oidc.providers.${id}`;
  const issuer = p["issuer"] as string;
  const issuerUrl = httpUrl(issuer);
  if (issuerUrl === undefined) problem(`${at}.issuer`, "must be an https URL");
  else if (issuerUrl.protocol === "http:" && !LOOPBACK.has(issuerUrl.hostname))
    problem(`${at}.issuer`, "must be https (plain http only on localhost, for development)");
  const method = (p["token_endpoint_auth_method"] as OidcProviderOptions["tokenEndpointAuthMethod"]) ?? undefined;
  const secret = p["client_secret"] as string | undefined;
  if (method !== "none" && secret === undefined)
    problem(`${at}.client_secret`, `is required with token_endpoint_auth_method ${method ?? "client_secret_post"}`);
  const scopes = p["scopes"] as string[] | undefined;
  if (scopes !== undefined && !scopes.includes("openid")) problem(`${at}.scopes`, "must include openid");
  const redirectUri = p["redirect_uri"] as string | undefined;
  if (redirectUri !== undefined && httpUrl(redirectUri) === undefined)
    problem(`${at}.redirect_uri`, "must be an http(s) URL");
  const optional = <K extends keyof OidcProviderOptions>(key: K, value: OidcProviderOptions[K] | undefined) =>
    value === undefined ? {} : { [key]: value };
  return {
    displayName: p["display_name"] as string,
    issuer,
    clientId: p["client_id"] as string,
    ...optional("clientSecret", secret),
    ...optional("redirectUri", redirectUri),
    ...optional("scopes", scopes),
    ...optional("tokenEndpointAuthMethod", method),
    ...optional("autoCreateUsers", p["auto_create_users"] as boolean | undefined),
    ...optional("requireVerifiedEmail", p["require_verified_email"] as boolean | undefined),
    ...optional("allowedEmailDomains", p["allowed_email_domains"] as string[] | undefined),
    ...optional("adminEmails", p["admin_emails"] as string[] | undefined),
  };
}

/**
 * @param doc - the validated document
 * @param problem - records a problem at a key path
 * @returns the OIDC settings, or `undefined` when `auth.oidc` is absent
 */
export function resolveOidc(doc: Doc, problem: (path: string, message: string) => void): OidcSettings | undefined {
  const auth = (doc["auth"] as Doc | undefined) ?? {};
  const o = auth["oidc"] as Doc | undefined;
  if (o === undefined) return undefined;
  const enabled = (o["enabled"] as boolean | undefined) ?? false;
  if (enabled && auth["enabled"] !== true)
    problem("auth.oidc.enabled", "SSO login needs accounts: set auth.enabled: true");
  const frontend = o["frontend_base_url"] as string | undefined;
  if (frontend !== undefined) {
    const url = httpUrl(frontend);
    if (url === undefined || url.search !== "" || url.username !== "")
      problem("auth.oidc.frontend_base_url", "must be an http(s) URL without query or credentials");
  }
  const providers: Record<string, OidcProviderOptions> = {};
  for (const [id, p] of Object.entries((o["providers"] as Record<string, Doc> | undefined) ?? {})) {
    providers[id] = resolveProvider(id, p, problem);
  }
  if (enabled && Object.keys(providers).length === 0)
    problem("auth.oidc.providers", "name at least one provider when auth.oidc.enabled is true");
  return {
    enabled,
    providers,
    ...(frontend === undefined ? {} : { frontendBaseUrl: frontend }),
    ...(o["timeout_seconds"] === undefined ? {} : { timeoutSeconds: o["timeout_seconds"] as number }),
  };
}
