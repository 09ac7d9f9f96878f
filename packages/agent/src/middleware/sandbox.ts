/**
 * Sandbox middleware — DeerFlow's `SandboxMiddleware` (chain row 6): acquires
 * the thread's sandbox before the agent starts, records `sandbox: { sandbox_id }`
 * in the thread state (declared by `LeadAgentState`), and ends the run's lease
 * when the agent finishes. The thread comes from `configurable.thread_id`, the
 * user from `configurable.user_id`, the run from `configurable.run_id`; the
 * lease also ends when the run's abort signal fires (see {@link ThreadSandboxes}).
 *
 * Config keys: none of its own (`sandbox:` of the server picks the provider).
 */
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../logger.js";
import type { ThreadSandboxes } from "../sandbox/thread-sandboxes.js";
import type { SandboxStateValue } from "../state/thread-state.js";

/** Options of {@link createSandboxMiddleware}. */
export interface SandboxMiddlewareOptions {
  /** The agent's per-thread session registry (its tools read the same one). */
  readonly sessions: ThreadSandboxes;
  readonly logger?: Logger;
}

/**
 * Creates the sandbox middleware.
 *
 * @param options - session registry and logger
 * @returns a `beforeAgent` / `afterAgent` middleware
 * @example
 * ```ts
 * const sessions = new ThreadSandboxes(provider);
 * const middleware = [createSandboxMiddleware({ sessions })];
 * const tools = createSandboxTools({ getSandbox: (config) => sessions.sandboxFor(config ?? {}) });
 * ```
 */
export function createSandboxMiddleware(options: SandboxMiddlewareOptions): AgentMiddleware {
  const { sessions } = options;
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "SandboxMiddleware",
    beforeAgent: async (_state, runtime) => {
      const session = sessions.open(runtime);
      const sandbox = await session.get();
      logger.debug({ threadId: session.threadId, sandboxId: sandbox.id }, "sandbox acquired");
      const update: { sandbox: SandboxStateValue } = { sandbox: { sandbox_id: sandbox.id } };
      // The channel is declared by the agent's state schema, not this middleware's.
      return update as unknown as Record<string, never>;
    },
    afterAgent: async (_state, runtime) => {
      await sessions.close(runtime);
      return undefined;
    },
  });
}
