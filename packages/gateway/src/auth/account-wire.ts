/**
 * Account records as the auth routes answer them (snake_case, no hashes).
 */
import type { ApiKeyRecord, UserRecord } from "@deerflow/runtime";

/** @returns DeerFlow's `UserResponse` with `needs_setup`, plus `disabled` and `created_at`. */
export function toWireUser(user: UserRecord): Record<string, unknown> {
  return {
    id: user.userId,
    email: user.email,
    system_role: user.systemRole,
    oauth_provider: user.oauthProvider,
    needs_setup: user.needsSetup,
    disabled: user.disabled,
    created_at: user.createdAt,
  };
}

/** @returns a key as listed: never its hash, never the key. */
export function toWireApiKey(key: ApiKeyRecord): Record<string, unknown> {
  return {
    id: key.keyId,
    name: key.name,
    prefix: key.prefix,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
  };
}
