/**
 * Resolves `auth:` of `config.yaml`: `enabled` (false: today's single-user
 * mode), `token_expiry_days` (7, 1–30), `cookie_secure` (false),
 * `allowed_origins` (none), `local.allow_registration` (true).
 * `DEER_FLOW_AUTH_DISABLED=1` (or `true`) switches accounts off whatever the file says.
 */
import { resolveOidc } from "./resolve-oidc.js";
import type { AuthSettings } from "./types.js";

type Doc = Record<string, unknown>;

/** The variable that forces accounts off (DeerFlow's). */
const AUTH_DISABLED_ENV = "DEER_FLOW_AUTH_DISABLED";

/**
 * @param doc - the validated document
 * @param env - the environment
 * @param problem - records a problem at a key path
 * @param provenance - records why accounts are on or off
 * @returns the `auth:` settings with defaults
 */
export function resolveAuth(
  doc: Doc,
  env: NodeJS.ProcessEnv,
  problem: (path: string, message: string) => void,
  provenance: Record<string, string>,
): AuthSettings {
  const a = (doc["auth"] as Doc | undefined) ?? {};
  const local = (a["local"] as Doc | undefined) ?? {};
  const forcedOff = ["1", "true", "yes", "on"].includes((env[AUTH_DISABLED_ENV] ?? "").trim().toLowerCase());
  const enabled = !forcedOff && a["enabled"] === true;
  provenance["auth"] = forcedOff
    ? `environment (${AUTH_DISABLED_ENV} is set)`
    : a["enabled"] === undefined
      ? "default"
      : "config";
  const allowedOrigins = (a["allowed_origins"] as string[] | undefined) ?? [];
  allowedOrigins.forEach((origin, i) => {
    if (origin.trim() === "*") {
      problem(`auth.allowed_origins[${i}]`, 'must name an origin: "*" would let any site sign users in');
      return;
    }
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.pathname !== "/") {
      problem(`auth.allowed_origins[${i}]`, `must be an origin like "https://console.example.com", got "${origin}"`);
    }
  });
  const oidc = resolveOidc(doc, problem);
  return {
    enabled,
    tokenExpiryDays: (a["token_expiry_days"] as number | undefined) ?? 7,
    cookieSecure: (a["cookie_secure"] as boolean | undefined) ?? false,
    allowedOrigins,
    allowRegistration: (local["allow_registration"] as boolean | undefined) ?? true,
    ...(oidc === undefined ? {} : { oidc }),
  };
}
