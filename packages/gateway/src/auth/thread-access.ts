/**
 * Optional per-thread authorization hook shared by routes that take a thread id.
 */
import type { Principal } from "./principal.js";

/**
 * Decides whether `principal` may touch thread `threadId`; resolves when yes,
 * rejects otherwise, typically with an error whose `code` is `THREAD_NOT_FOUND`
 * (404, so other users' threads stay invisible) or `FORBIDDEN` (403).
 *
 * @example
 * ```ts
 * const authorizeThread: ThreadAuthorizer = async (principal, threadId) => {
 *   if ((await threads.get(threadId))?.ownerId !== principal.userId) throw new GatewayError("NOT_FOUND", `Thread ${threadId} not found`);
 * };
 * ```
 */
export type ThreadAuthorizer = (principal: Principal, threadId: string) => Promise<void>;
