/**
 * The service's keys from the environment: `SANDBOX_API_KEY` (one client,
 * `default`), `SANDBOX_CLIENT_KEYS` (a JSON object of client id → key) and
 * `SANDBOX_ADMIN_KEY`, validated with JSON Schema. Messages name the variable
 * and the client id, never a key.
 */
import { Ajv, type ErrorObject } from "ajv";
import { SandboxError } from "../../errors.js";
import { ADMIN_CLIENT_ID, CLIENT_ID_PATTERN, DEFAULT_CLIENT_ID, KeyRing, type ClientKey } from "./auth.js";

/** Shortest key `SANDBOX_CLIENT_KEYS` and `SANDBOX_ADMIN_KEY` accept (`SANDBOX_API_KEY` keeps accepting any, as before). */
const MIN_KEY_LENGTH = 16;

const key = { type: "string", minLength: MIN_KEY_LENGTH, maxLength: 4096 } as const;

/** Schema of `SANDBOX_CLIENT_KEYS`, e.g. `{"agents-eu": "…", "agents-us": "…"}`. */
const CLIENT_KEYS_SCHEMA = {
  type: "object",
  minProperties: 1,
  propertyNames: { pattern: CLIENT_ID_PATTERN, not: { const: ADMIN_CLIENT_ID } },
  additionalProperties: key,
} as const;

/** Schema of `SANDBOX_ADMIN_KEY`. */
const ADMIN_KEY_SCHEMA = key;

const ajv = new Ajv({ allErrors: false, strict: true });
const validateClientKeys = ajv.compile<Record<string, string>>(CLIENT_KEYS_SCHEMA);
const validateAdminKey = ajv.compile<string>(ADMIN_KEY_SCHEMA);

/** A key setting that does not validate; the message never contains a key. */
export class KeyConfigError extends Error {
  override readonly name = "KeyConfigError";
}

/** The keys of the service. */
export interface KeyConfig {
  /** `SANDBOX_API_KEY` as client `default`, then `SANDBOX_CLIENT_KEYS` in their order. */
  readonly clients: readonly ClientKey[];
  readonly adminKey: string | undefined;
}

function describe(variable: string, error: ErrorObject | undefined): string {
  if (error === undefined) return `${variable} is invalid`;
  // ajv marks errors found under `propertyNames` with the offending name.
  const propertyName = error.propertyName ?? (error.params as { propertyName?: unknown }).propertyName;
  if (typeof propertyName === "string") {
    return `${variable}: ${JSON.stringify(propertyName)} is not a valid client id (1-64 letters, digits, '_' or '-'; "${ADMIN_CLIENT_ID}" is reserved)`;
  }
  const where =
    error.instancePath === ""
      ? ""
      : ` ${decodeURIComponent(error.instancePath.slice(1)).replace(/~1/g, "/").replace(/~0/g, "~")}:`;
  return `${variable}:${where} ${error.message ?? "is invalid"}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/**
 * Reads the keys from the environment.
 *
 * @param env - The environment.
 * @returns Client keys and the admin key; both empty when none is set (an open service).
 * @throws KeyConfigError naming the variable (and client id) for bad JSON, a
 *   schema violation, a repeated client id or a key shared by two principals.
 * @example
 * ```ts
 * readKeyConfig({ SANDBOX_CLIENT_KEYS: '{"agents-eu":"0123456789abcdef"}' }).clients; // [{ id: "agents-eu", key: "0123456789abcdef" }]
 * ```
 */
export function readKeyConfig(env: NodeJS.ProcessEnv): KeyConfig {
  const clients: ClientKey[] = [];
  const shared = nonEmpty(env.SANDBOX_API_KEY);
  if (shared !== undefined) clients.push({ id: DEFAULT_CLIENT_ID, key: shared });
  const listed = nonEmpty(env.SANDBOX_CLIENT_KEYS);
  if (listed !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(listed);
    } catch {
      // The text holds keys: say where it broke, not what it says.
      throw new KeyConfigError("SANDBOX_CLIENT_KEYS is not a JSON object");
    }
    if (!validateClientKeys(parsed))
      throw new KeyConfigError(describe("SANDBOX_CLIENT_KEYS", validateClientKeys.errors?.[0]));
    for (const [id, value] of Object.entries(parsed)) {
      if (id === DEFAULT_CLIENT_ID && shared !== undefined)
        throw new KeyConfigError(`SANDBOX_CLIENT_KEYS: "${DEFAULT_CLIENT_ID}" is already SANDBOX_API_KEY's client`);
      clients.push({ id, key: value });
    }
  }
  const adminKey = nonEmpty(env.SANDBOX_ADMIN_KEY);
  if (adminKey !== undefined && !validateAdminKey(adminKey))
    throw new KeyConfigError(describe("SANDBOX_ADMIN_KEY", validateAdminKey.errors?.[0]));
  try {
    // The same checks the service makes at start (unique ids and keys), reported at parse time.
    new KeyRing(clients, adminKey);
  } catch (err) {
    if (SandboxError.isInstance(err)) throw new KeyConfigError(err.message);
    throw err;
  }
  return { clients, adminKey };
}
