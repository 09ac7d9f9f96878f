/**
 * Run prompt — DeerFlow's `apply_prompt_template` at agent build, applied per
 * model call because the agent is compiled once: the request's system prompt
 * becomes the run's (see `createRunPromptBuilder`: skills as they are now,
 * subagents on or off for the run, its `max_concurrent_subagents`).
 *
 * Config keys (per run): `subagent_enabled`, `max_concurrent_subagents`.
 */
import { createMiddleware, type AgentMiddleware } from "langchain";
import type { RunPromptBuilder } from "../prompt/run-prompt.js";
import { readRunOptions } from "../run/run-options.js";

/** Options of {@link createRunPromptMiddleware}. */
export interface RunPromptMiddlewareOptions {
  /** Builds the run's prompt (e.g. `createRunPromptBuilder(...)`, or any `(run) => Promise<string>`). */
  readonly build: RunPromptBuilder;
}

/**
 * Creates the run-prompt middleware. Put it before middlewares that add to the
 * system message, so they add to the run's prompt.
 *
 * @param options - the prompt builder
 * @returns a `wrapModelCall` middleware
 */
export function createRunPromptMiddleware(options: RunPromptMiddlewareOptions): AgentMiddleware {
  return createMiddleware({
    name: "RunPromptMiddleware",
    wrapModelCall: async (request, handler) => {
      const systemPrompt = await options.build(readRunOptions(request.runtime));
      return handler(systemPrompt === request.systemPrompt ? request : { ...request, systemPrompt });
    },
  });
}
