/**
 * A user id as a folder name: ids become `{base}/users/<folder>`, so they are
 * normalised as DeerFlow does before they touch the filesystem.
 */
import { createHash } from "node:crypto";
import { SkillsError } from "../errors.js";

const SAFE_ID = /^[A-Za-z0-9_-]+$/;
/** Longest id kept as is; longer ones are shortened and hashed (a folder name has 255 bytes). */
const MAX_PLAIN_LENGTH = 128;

/**
 * DeerFlow's rule: an id of `[A-Za-z0-9_-]` is its own folder name; any other
 * (an IM channel id like `feishu:ou_x`, `..`, `a/b`) becomes
 * `<id with other characters as '-'>-<first 16 hex of sha256(id)>`, so two
 * ids never share a folder and none escapes `users/`. Ids over 128 characters
 * are shortened the same way (DeerFlow does not; such a folder could not be created).
 *
 * @param userId - the authenticated user's id.
 * @returns the folder name.
 * @throws SkillsError `INVALID_NAME` (`"user_id must be a non-empty string."`) for an empty id.
 * @example
 * ```ts
 * userFolderName("alice"); // "alice"
 * userFolderName("feishu:ou_1"); // "feishu-ou_1-" + 16 hex characters
 * ```
 */
export function userFolderName(userId: string): string {
  if (typeof userId !== "string" || userId.trim() === "")
    throw new SkillsError("INVALID_NAME", "user_id must be a non-empty string.");
  if (SAFE_ID.test(userId) && userId.length <= MAX_PLAIN_LENGTH) return userId;
  const hash = createHash("sha256").update(userId, "utf8").digest("hex").slice(0, 16);
  return `${userId.replace(/[^A-Za-z0-9_-]/g, "-").slice(0, MAX_PLAIN_LENGTH - 17)}-${hash}`;
}
