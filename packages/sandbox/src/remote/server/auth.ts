/**
 * Who is calling: the `X-API-Key` header checked against every configured key
 * in constant time. A client key makes the caller that client (it owns the
 * sandboxes it creates); the admin key makes it the operator, who sees all.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { SandboxError } from "../../errors.js";

/** Client ids: they name owners in logs and admin answers and prefix users on the provider, so no `.`. */
export const CLIENT_ID_PATTERN = "^[A-Za-z0-9_-]{1,64}$";

/** Client id of the single shared key (`token` / `SANDBOX_API_KEY`) and of every caller of a service without keys. */
export const DEFAULT_CLIENT_ID = "default";

/** One client of the service and its secret. */
export interface ClientKey {
  /** Owner name of the client's sandboxes (`[A-Za-z0-9_-]{1,64}`). */
  readonly id: string;
  /** Its `X-API-Key` value. */
  readonly key: string;
}

/** An authenticated caller. */
export interface Principal {
  /** The client id, or `admin` for the admin key. */
  readonly clientId: string;
  /** True for the admin key: lists every client's sandboxes and may stop any. */
  readonly admin: boolean;
}

/** Client id reported for the admin key (reserved: no client may take it). */
export const ADMIN_CLIENT_ID = "admin";

interface Entry {
  readonly digest: Buffer;
  readonly principal: Principal;
}

const clientIdRe = new RegExp(CLIENT_ID_PATTERN);

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/**
 * The keys a service accepts. Keys are kept as SHA-256 digests and a presented
 * key is compared with every one of them with `timingSafeEqual` (fixed 32-byte
 * inputs, no early exit), so neither a key's length nor which key came close
 * shows in the answer time.
 *
 * @example
 * ```ts
 * const ring = new KeyRing([{ id: "agents-eu", key: process.env.EU_KEY! }], process.env.ADMIN_KEY);
 * ring.identify(request.headers["x-api-key"]); // { clientId: "agents-eu", admin: false } or undefined
 * ```
 */
export class KeyRing {
  readonly #entries: readonly Entry[];

  /**
   * @param clients - Client keys; ids unique, keys unique and non-empty.
   * @param adminKey - The operator's key, distinct from every client key.
   * @throws {@link SandboxError} `CONFIG_INVALID` naming the bad id (never the key).
   */
  constructor(clients: readonly ClientKey[], adminKey?: string) {
    const ids = new Set<string>();
    const entries: Entry[] = [];
    for (const client of clients) {
      if (!clientIdRe.test(client.id))
        throw new SandboxError(
          "CONFIG_INVALID",
          `Invalid client id ${JSON.stringify(client.id)}: use 1-64 letters, digits, '_' and '-'`,
        );
      if (client.id === ADMIN_CLIENT_ID)
        throw new SandboxError("CONFIG_INVALID", `Client id "${ADMIN_CLIENT_ID}" is reserved for the admin key`);
      if (ids.has(client.id)) throw new SandboxError("CONFIG_INVALID", `Client id ${client.id} is configured twice`);
      if (client.key === "") throw new SandboxError("CONFIG_INVALID", `The key of client ${client.id} is empty`);
      ids.add(client.id);
      entries.push({ digest: digest(client.key), principal: { clientId: client.id, admin: false } });
    }
    if (adminKey !== undefined) {
      if (adminKey === "") throw new SandboxError("CONFIG_INVALID", "The admin key is empty");
      entries.push({ digest: digest(adminKey), principal: { clientId: ADMIN_CLIENT_ID, admin: true } });
    }
    const digests = new Set(entries.map((entry) => entry.digest.toString("hex")));
    if (digests.size !== entries.length)
      throw new SandboxError("CONFIG_INVALID", "Two clients (or a client and the admin) share a key");
    this.#entries = entries;
  }

  /** True when no key is configured: the service is open. */
  get empty(): boolean {
    return this.#entries.length === 0;
  }

  /**
   * Finds the caller of a request.
   *
   * @param presented - The `X-API-Key` header (`undefined` or an array when absent or repeated).
   * @returns The principal whose key equals exactly one header value, else `undefined`.
   */
  identify(presented: string | readonly string[] | undefined): Principal | undefined {
    if (typeof presented !== "string") return undefined;
    const candidate = digest(presented);
    let found: Principal | undefined;
    // Every key is compared, whatever matched before: the time does not depend on which one it is.
    for (const entry of this.#entries) {
      if (timingSafeEqual(candidate, entry.digest)) found = entry.principal;
    }
    return found;
  }
}
