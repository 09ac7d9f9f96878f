import type { Sandbox } from "./sandbox.js";

/**
 * Hands out sandboxes per thread. Providers are chosen by configuration
 * (`use: "<module>:<export>"`), so a plugin can supply its own.
 */
export interface SandboxProvider {
  /** Returns the sandbox of a thread, creating (or re-attaching to) it when needed. */
  acquire(threadId: string, userId?: string): Promise<Sandbox>;
  /** A sandbox handed out earlier and not yet released or evicted. */
  get(id: string): Sandbox | undefined;
  /** Tells the provider the caller is done for now (it may keep the sandbox warm). */
  release(id: string): Promise<void>;
  /** Releases everything; the provider cannot be used afterwards. */
  shutdown(): Promise<void>;
}
