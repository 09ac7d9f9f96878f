/**
 * DeerFlow's secret masking of `/api/mcp/config` (§2.4): on the way out every
 * `env` and `headers` value becomes `***`, `oauth.client_secret` and
 * `oauth.refresh_token` become null, and extra keys named like secrets become
 * `***`; on the way in `***` (and null for OAuth) restores the stored value.
 */
import { GatewayError } from "@deerflow/gateway";

/** The mask. */
const MASK = "***";

type Entry = Record<string, unknown>;

const KNOWN_KEYS = new Set([
  "enabled",
  "type",
  "transport",
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "oauth",
  "description",
  "routing",
  "tools",
  "tool_name_prefix",
  "tool_call_timeout",
  "session_init_timeout",
  "task_toolsets",
]);

const SECRET_NAME =
  /(^|_)(api_key|apikey|access_key|private_key|client_secret|secret|token|password|passwd|credentials?|authorization|bearer)(_|$)/;

/**
 * Whether an extra key names a secret (camelCase split, `_` boundaries).
 *
 * @param key - the key
 * @returns true for `api_key`, `myToken`, `client-secret`...
 */
export function isSecretKey(key: string): boolean {
  const normal = key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_");
  return SECRET_NAME.test(normal);
}

const isObject = (v: unknown): v is Entry => v !== null && typeof v === "object" && !Array.isArray(v);

function maskMap(v: unknown): unknown {
  return isObject(v) ? Object.fromEntries(Object.keys(v).map((k) => [k, MASK])) : v;
}

/**
 * Masks one server entry for an answer.
 *
 * @param entry - the stored entry
 * @returns a copy with secrets masked
 */
export function maskServer(entry: Entry): Entry {
  const out: Entry = {};
  for (const [k, v] of Object.entries(entry)) {
    if (k === "env" || k === "headers") out[k] = maskMap(v);
    else if (k === "oauth" && isObject(v)) {
      const o = { ...v };
      if ("client_secret" in o) o["client_secret"] = null;
      if ("refresh_token" in o) o["refresh_token"] = null;
      out[k] = o;
    } else if (!KNOWN_KEYS.has(k) && isSecretKey(k)) out[k] = MASK;
    else out[k] = v;
  }
  return out;
}

function restoreMap(what: string, incoming: unknown, stored: unknown): unknown {
  if (!isObject(incoming)) return incoming;
  const out: Entry = {};
  for (const [k, v] of Object.entries(incoming)) {
    if (v !== MASK) out[k] = v;
    else if (isObject(stored) && k in stored) out[k] = stored[k];
    else
      throw new GatewayError(
        "BAD_REQUEST",
        `Cannot set ${what} '${k}' to masked value '${MASK}'; provide a real value.`,
      );
  }
  return out;
}

/**
 * Restores masked values of an entry written through the API.
 *
 * @param incoming - the entry of the request
 * @param stored - the entry on disk, if the server exists
 * @returns the entry to write
 * @throws GatewayError `BAD_REQUEST` (400) for `***` where nothing is stored (DeerFlow's text)
 */
export function restoreServer(incoming: Entry, stored: Entry | undefined): Entry {
  const out: Entry = {};
  for (const [k, v] of Object.entries(incoming)) {
    if (k === "env") out[k] = restoreMap("env key", v, stored?.["env"]);
    else if (k === "headers") out[k] = restoreMap("header", v, stored?.["headers"]);
    else if (k === "oauth" && isObject(v)) {
      const o: Entry = { ...v };
      const before = isObject(stored?.["oauth"]) ? (stored["oauth"] as Entry) : {};
      for (const secret of ["client_secret", "refresh_token"]) {
        // null keeps the stored value, "" clears it.
        if (o[secret] === null) {
          if (before[secret] === undefined) delete o[secret];
          else o[secret] = before[secret];
        } else if (o[secret] === "") delete o[secret];
      }
      out[k] = o;
    } else if (v === MASK && !KNOWN_KEYS.has(k)) {
      if (stored === undefined || !(k in stored))
        throw new GatewayError(
          "BAD_REQUEST",
          `Cannot set extra config key '${k}' to masked value '${MASK}'; provide a real value.`,
        );
      out[k] = stored[k];
    } else out[k] = v;
  }
  // Omitting routing/tools keeps the stored ones (DeerFlow).
  for (const keep of ["routing", "tools"])
    if (!(keep in incoming) && stored !== undefined && keep in stored) out[keep] = stored[keep];
  return out;
}
