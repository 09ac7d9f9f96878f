/**
 * Deterministic sandbox ids: every process computes the same id for a
 * (user, thread), so a restarted gateway re-attaches to the running sandbox
 * instead of creating another.
 */
import { createHash } from "node:crypto";

import { DEFAULT_USER_ID } from "../../limits.js";

export { DEFAULT_USER_ID };

/**
 * `sha256("<user>:<thread>")` as hex, first 16 characters (DeerFlow's `AioSandboxProvider` ids).
 *
 * @param threadId - The thread.
 * @param userId - The user; default {@link DEFAULT_USER_ID}.
 * @returns 16 lowercase hex characters.
 * @example
 * ```ts
 * sandboxIdFor("thread-1"); // sha256("default:thread-1").slice(0, 16)
 * ```
 */
export function sandboxIdFor(threadId: string, userId: string = DEFAULT_USER_ID): string {
  return createHash("sha256").update(`${userId}:${threadId}`, "utf8").digest("hex").slice(0, 16);
}
