/**
 * API keys: configuration, normalisation and the constant-time lookup.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { GatewayError } from "../errors.js";
import { DEFAULT_USER_ID, type Principal } from "./principal.js";

/** One configured API key. */
export interface ApiKeyEntry {
  /** The secret presented as `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
  readonly key: string;
  /** May call admin-only routes (skills management). Default false. */
  readonly admin?: boolean;
  /** Owner of the caller's threads and skills, `[A-Za-z0-9_.-]+`. Default `default`. */
  readonly userId?: string;
  /**
   * The caller's role for `authorization` (`principal.role`), e.g. a role the RBAC policy names.
   * Default: `admin` for admin keys, else `user` (see `roleOf`).
   */
  readonly role?: string;
}

/** Authentication options of the gateway. */
export interface AuthOptions {
  /**
   * Accepted keys. A bare string is a non-admin key of user `default`; use the
   * object form to grant admin rights or name the user.
   */
  readonly apiKeys: ReadonlyArray<string | ApiKeyEntry>;
}

/** Pattern of user ids, the same as the sandbox's (they become folder names). */
export const USER_ID_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** A role name of an API key: letters, digits, `_ . : -`, at most 64. */
export const ROLE_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

interface KeyDigest {
  readonly digest: Buffer;
  readonly principal: Principal;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/**
 * Validated keys with their principals, compared in constant time.
 *
 * Each presented key is hashed and compared with every configured key's hash
 * with `timingSafeEqual`, without stopping at a match, so neither the length
 * of a key nor its position in the list shows in the timing.
 */
export class ApiKeyRing {
  readonly #keys: readonly KeyDigest[];

  /**
   * @param options - the configured keys.
   * @throws GatewayError `CONFIG_INVALID` for an empty list, an empty or duplicate key, or a bad user id.
   */
  constructor(options: AuthOptions) {
    if (!Array.isArray(options.apiKeys) || options.apiKeys.length === 0) {
      throw new GatewayError("CONFIG_INVALID", "auth.apiKeys must list at least one key");
    }
    const seen = new Set<string>();
    this.#keys = options.apiKeys.map((entry, i) => {
      const e: ApiKeyEntry = typeof entry === "string" ? { key: entry } : entry;
      if (typeof e.key !== "string" || e.key.length === 0)
        throw new GatewayError("CONFIG_INVALID", `auth.apiKeys[${i}] has an empty key`);
      if (seen.has(e.key)) throw new GatewayError("CONFIG_INVALID", `auth.apiKeys[${i}] repeats an earlier key`);
      seen.add(e.key);
      const userId = e.userId ?? DEFAULT_USER_ID;
      if (!USER_ID_PATTERN.test(userId) || userId === "." || userId === "..") {
        throw new GatewayError(
          "CONFIG_INVALID",
          `auth.apiKeys[${i}].userId ${JSON.stringify(userId)} must match ${USER_ID_PATTERN.source}`,
        );
      }
      if (e.role !== undefined && (typeof e.role !== "string" || !ROLE_PATTERN.test(e.role)))
        throw new GatewayError(
          "CONFIG_INVALID",
          `auth.apiKeys[${i}].role ${JSON.stringify(e.role)} must match ${ROLE_PATTERN.source}`,
        );
      return {
        digest: digest(e.key),
        principal: Object.freeze({
          userId,
          admin: e.admin === true,
          authenticated: true,
          ...(e.role === undefined ? {} : { role: e.role }),
        }),
      };
    });
  }

  /**
   * @param presented - the key from the request.
   * @returns the key's principal, or `undefined` when no configured key matches.
   */
  match(presented: string): Principal | undefined {
    const d = digest(presented);
    let found: Principal | undefined;
    for (const k of this.#keys) {
      if (timingSafeEqual(d, k.digest) && found === undefined) found = k.principal;
    }
    return found;
  }
}

/**
 * Reads the presented key: `Authorization: Bearer <key>` (scheme case-insensitive),
 * otherwise a single `X-API-Key` header.
 *
 * @param headers - the request headers.
 * @returns the key, or `undefined` when none (or a repeated `X-API-Key`) was sent.
 */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const authorization = headers["authorization"];
  if (typeof authorization === "string") {
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
    if (m?.[1] !== undefined) return m[1];
  }
  const apiKey = headers["x-api-key"];
  return typeof apiKey === "string" && apiKey.length > 0 ? apiKey : undefined;
}
