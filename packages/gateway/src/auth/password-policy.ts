/**
 * The rule a new password must pass (registration, first admin, password
 * change, admin-created users): DeerFlow's — 8 characters or more, not a
 * common password.
 */
import { COMMON_PASSWORDS } from "./common-passwords.js";

/** Shortest password accepted. */
export const MIN_PASSWORD_LENGTH = 8;
/** Longest password accepted (a bound on the hashing work one request can ask for). */
export const MAX_PASSWORD_LENGTH = 1024;

/** DeerFlow's text for a common password. */
export const COMMON_PASSWORD_MESSAGE = "Password is too common; choose a stronger password.";

/**
 * @param password - the new password.
 * @returns why it is refused, or `undefined` when it is acceptable.
 */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (length > MAX_PASSWORD_LENGTH) return `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return COMMON_PASSWORD_MESSAGE;
  return undefined;
}
