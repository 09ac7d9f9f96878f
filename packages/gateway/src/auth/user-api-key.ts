/**
 * Per-user API keys: `dfk_` and 32 random bytes (base64url). The store keeps
 * the key's SHA-256 and a short prefix to tell keys apart in lists.
 */
import { createHash, randomBytes } from "node:crypto";

/** Prefix of every per-user key (configured keys may look like anything). */
export const USER_API_KEY_PREFIX = "dfk_";
/** Characters of a key kept as `ApiKeyRecord.prefix`. */
const SHOWN_PREFIX_LENGTH = 12;

const KEY_SHAPE = /^dfk_[A-Za-z0-9_-]{43}$/;

/** A new key: the secret (shown once), its hash and shown prefix. */
export interface MintedApiKey {
  readonly key: string;
  readonly keyHash: string;
  readonly prefix: string;
}

/** @returns the SHA-256 hex of a key (`ApiKeyRecord.keyHash`). */
export function apiKeyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** @returns a new random key. */
export function mintUserApiKey(): MintedApiKey {
  const key = USER_API_KEY_PREFIX + randomBytes(32).toString("base64url");
  return { key, keyHash: apiKeyHash(key), prefix: key.slice(0, SHOWN_PREFIX_LENGTH) };
}

/** Whether `key` has the shape of a per-user key (others are not looked up). */
export function looksLikeUserApiKey(key: string): boolean {
  return KEY_SHAPE.test(key);
}
