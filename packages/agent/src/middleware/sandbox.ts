/**
 * Sandbox middleware — DeerFlow's `SandboxMiddleware` (chain row 6) with its
 * default `lazy_init`: the thread's sandbox is acquired by the run's first
 * tool call that needs it (the sandbox tools, `present_files`, uploads
 * listing: all through the same {@link ThreadSandboxes}), never for a run that
 * calls no tool. This middleware records `sandbox: { sandbox_id }` in the
 * thread state (declared by `LeadAgentState`) at the model call after that
 * acquisition, and ends the run's lease when the model gives its final answer
 * (one without tool calls: the run goes to its end). The thread comes from
 * `configurable.thread_id`, the user from `configurable.user_id`, the run from
 * `configurable.run_id`; the lease also ends when the run's abort signal
 * fires, and with the agent's `invoke` / `stream` however the run ends (see
 * {@link ThreadSandboxes} and `releaseSandboxesAfterRuns`).
 *
 * Where its hooks live: in the model node (`wrapModelCall`), not in
 * `beforeAgent` / `afterAgent` nodes every run passes through. After any
 * model call: a sandbox a tool of this run acquired since is written into the
 * state through a `Command` (once per run); an answer without tool calls is
 * the run's last model call, which is where the graph went to `afterAgent`
 * before, so the lease ends there; a run that stops otherwise (an interrupt,
 * an error, its signal) was never released by `afterAgent` either, and is by
 * `releaseSandboxesAfterRuns` and the signal.
 *
 * Config keys: none of its own (`sandbox:` of the server picks the provider).
 */
import { AIMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../logger.js";
import type { RunConfigLike } from "../run/run-options.js";
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
 * @returns a `wrapModelCall` middleware
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
    wrapModelCall: async (request, handler) => {
      const runtime = request.runtime as RunConfigLike;
      const response = await handler(request);
      // A tool of this run acquired the thread's sandbox since the last call: record it (once per run).
      const sandboxId = sessions.takeIdToRecord(runtime);
      if (sandboxId !== undefined) logger.debug({ sandboxId }, "sandbox recorded in the thread state");
      // afterAgent's moment: an answer without tool calls is the run's last model call.
      if (AIMessage.isInstance(response) && (response.tool_calls?.length ?? 0) === 0) await sessions.close(runtime);
      if (sandboxId === undefined) return response;
      const update: { sandbox: SandboxStateValue } = { sandbox: { sandbox_id: sandboxId } };
      return new Command({ update });
    },
  });
}
