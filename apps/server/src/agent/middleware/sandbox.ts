/**
 * Sandbox middleware (DeerFlow's `SandboxMiddleware`): acquires the thread's
 * sandbox from the configured provider before the agent starts, records
 * `sandbox: { sandbox_id }` in the thread state (see `LeadAgentState`), and
 * releases it when the agent finishes. (An interrupted or failed run does not
 * reach `afterAgent`; the lead-agent factory also releases on the run's abort
 * signal.)
 */
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../../logger.js";
import type { SandboxStateValue } from "../thread-state.js";
import type { ThreadSandbox } from "../thread-sandbox.js";

/**
 * Creates the sandbox middleware for one run.
 *
 * @param session - the run's thread sandbox
 * @param logger - logger
 * @returns a `beforeAgent` / `afterAgent` middleware
 */
export function createSandboxMiddleware(session: ThreadSandbox, logger: Logger = silentLogger): AgentMiddleware {
  return createMiddleware({
    name: "SandboxMiddleware",
    beforeAgent: async () => {
      const sandbox = await session.get();
      logger.debug({ threadId: session.threadId, sandboxId: sandbox.id }, "sandbox acquired");
      const update: { sandbox: SandboxStateValue } = { sandbox: { sandbox_id: sandbox.id } };
      // The channel is declared by the agent's state schema, not this middleware's.
      return update as unknown as Record<string, never>;
    },
    afterAgent: async () => {
      await session.release();
      return undefined;
    },
  });
}
