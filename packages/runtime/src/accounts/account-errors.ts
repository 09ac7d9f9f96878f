/**
 * The errors every account store raises for the same refusals, so that the
 * memory, SQLite and PostgreSQL stores fail with the same codes, messages and
 * details. Messages never echo an email: they end up in logs.
 */
import { RuntimeError } from "../errors.js";

/** `EMAIL_EXISTS`: another user has this email. */
export function emailExists(): RuntimeError {
  return new RuntimeError("EMAIL_EXISTS", "A user with this email already exists");
}

/** `OAUTH_IDENTITY_EXISTS`: another user has this provider and subject. */
export function oauthIdentityExists(provider: string): RuntimeError {
  return new RuntimeError("OAUTH_IDENTITY_EXISTS", `A user with this ${provider} identity already exists`, {
    details: { provider },
  });
}

/** `ALREADY_INITIALIZED`: a user exists, so there is no first admin to create. */
export function alreadyInitialized(): RuntimeError {
  return new RuntimeError("ALREADY_INITIALIZED", "The first admin has already been created");
}

/** `USER_NOT_FOUND` for `userId`. */
export function userNotFound(userId: string): RuntimeError {
  return new RuntimeError("USER_NOT_FOUND", `User ${userId} not found`, { details: { userId } });
}

/** `INVALID_ARGUMENT` for an API key whose id or hash is taken. */
export function apiKeyExists(keyId: string): RuntimeError {
  return new RuntimeError("INVALID_ARGUMENT", `API key ${keyId} or its hash already exists`, { details: { keyId } });
}

/** `INVALID_ARGUMENT` for a session id that is taken. */
export function sessionExists(): RuntimeError {
  return new RuntimeError("INVALID_ARGUMENT", "A session with this id already exists");
}
