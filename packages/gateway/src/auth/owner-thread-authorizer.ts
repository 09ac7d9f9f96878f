/**
 * The {@link ThreadAuthorizer} of a server whose threads live in a run store:
 * the thread files routes and skill install accept a thread its caller owns.
 */
import { RuntimeError, type RunStore } from "@deerflow/runtime";
import type { ThreadAuthorizer } from "./thread-access.js";
import { mayAccessThread } from "./thread-owner.js";

/**
 * Authorizes an admin for any thread id, and anyone else for the threads whose
 * `metadata.owner` is their user id. A missing thread and another user's answer
 * the same 404 `Thread <id> not found`, so a caller cannot learn which ids exist.
 * (The files themselves are kept per authenticated user whatever this answers:
 * it keeps uploads off threads the caller cannot run.)
 *
 * @param store - where the threads are (the run manager's `store`).
 * @returns the authorizer, for `createGateway({ authorizeThread })`.
 * @example
 * ```ts
 * const app = await createGateway({ threadFiles, authorizeThread: ownerThreadAuthorizer(manager.store) });
 * ```
 */
export function ownerThreadAuthorizer(store: Pick<RunStore, "getThread">): ThreadAuthorizer {
  return async (principal, threadId) => {
    if (principal.admin) return;
    const thread = await store.getThread(threadId);
    if (thread === null || !mayAccessThread(principal, thread.metadata)) {
      throw new RuntimeError("THREAD_NOT_FOUND", `Thread ${threadId} not found`, { details: { threadId } });
    }
  };
}
