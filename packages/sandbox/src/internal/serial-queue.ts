/**
 * The package's FIFO queues: the kernel's `SerialQueue` and `KeyedLock`, with
 * a task cancelled while queued rejecting as `SandboxError` `ABORTED`. Used for
 * per-sandbox request serialisation (the remote client), per-key critical
 * sections (acquire/release/destroy of one sandbox) and the tools' per-file
 * write lock.
 */
import { KeyedLock as KernelKeyedLock, SerialQueue as KernelSerialQueue } from "@deerflow/kernel";
import { SandboxError } from "../errors.js";

function abortedError(): SandboxError {
  return new SandboxError("ABORTED", "The operation was aborted");
}

/** Runs tasks one at a time, in the order they were queued; a task cancelled while queued rejects with `ABORTED`. */
export class SerialQueue extends KernelSerialQueue {
  constructor() {
    super({ abortError: abortedError });
  }
}

/** One {@link SerialQueue} per key, dropped when idle; a task cancelled while queued rejects with `ABORTED`. */
export class KeyedSerialQueue extends KernelKeyedLock {
  constructor() {
    super({ abortError: abortedError });
  }
}
