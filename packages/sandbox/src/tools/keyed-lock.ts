/**
 * An in-process mutex per key, used to serialise file mutations per
 * (sandbox id, path) so that concurrent read-modify-write tool calls
 * (`str_replace`, `write_file`) on one file never lose an update.
 */
import { posix } from "node:path";
import { KeyedSerialQueue } from "../internal/serial-queue.js";

/**
 * A set of FIFO mutexes addressed by string keys. Callers of {@link KeyedLock.run}
 * with the same key run one at a time, in call order; different keys never wait
 * on each other. Keys are forgotten as soon as nobody holds or waits for them,
 * so the map does not grow with the number of files ever touched.
 *
 * It is in-process only: two server processes sharing one sandbox are not
 * serialised (DeerFlow's lock has the same scope). The mechanism is the
 * package's {@link KeyedSerialQueue} (the kernel's keyed lock; a holder
 * cancelled while waiting rejects with `ABORTED`); this name is the tools'
 * public API.
 *
 * @example
 * ```ts
 * const lock = new KeyedLock();
 * await lock.run("a", async () => { const s = await read(); await write(s + "x"); });
 * ```
 */
export class KeyedLock extends KeyedSerialQueue {}

/** The lock shared by every tool set in this process, so two agents on one sandbox share it too. */
export const sharedFileLock: KeyedLock = new KeyedLock();

/**
 * The lock key of one file of one sandbox: the path is normalised
 * (`a//b/` and `a/b` are one file) so spelling differences cannot dodge the lock.
 *
 * @param sandboxId - {@link Sandbox.id}.
 * @param virtualPath - The file's virtual path (already checked for `..`).
 * @returns A key for {@link KeyedLock.run}.
 */
export function fileLockKey(sandboxId: string, virtualPath: string): string {
  let normalized = posix.normalize(virtualPath);
  while (normalized.length > 1 && normalized.endsWith("/")) normalized = normalized.slice(0, -1);
  return `${sandboxId}\u0000${normalized}`;
}
