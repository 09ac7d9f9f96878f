/**
 * A user id used as a path segment or namespace label: checked, never
 * trusted. The gateway writes it from authentication, but an embedding host
 * may pass anything; a store refuses what could leave its folder.
 */
import { AgentError } from "../errors.js";

const SAFE_USER = /^[A-Za-z0-9._@+-]{1,128}$/;

/**
 * @param userId - the owner
 * @returns the same id
 * @throws {@link AgentError} `CONFIG_INVALID` for an empty id, `.`, `..`, separators or control characters
 */
export function checkUserId(userId: unknown): string {
  if (typeof userId !== "string" || !SAFE_USER.test(userId) || userId === "." || userId === "..")
    throw new AgentError(
      "CONFIG_INVALID",
      `Invalid user id for custom agents: ${JSON.stringify(String(userId)).slice(0, 140)}`,
      {
        details: { userId: String(userId).slice(0, 140) },
      },
    );
  return userId;
}
