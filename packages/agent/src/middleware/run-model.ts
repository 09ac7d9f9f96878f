/**
 * Run model — DeerFlow's per-run model choice (`_resolve_model_name` at agent
 * build, §5.2), done per model call because the agent is compiled once: the
 * request's model becomes the run's `model_name` (or `model`; `context` over
 * `configurable`) when it is a configured model, else the default, with one
 * warning per run for an unknown name.
 *
 * Config keys (per run): `model_name`, `model`.
 */
import { createMiddleware, type AgentMiddleware } from "langchain";
import type { RunModels } from "../models/run-models.js";
import { readRunOptions } from "../run/run-options.js";

/** Options of {@link createRunModelMiddleware}. */
export interface RunModelMiddlewareOptions {
  /** The agent's model resolution (shared with the `task` tool, which hands the run's model to subagents). */
  readonly models: RunModels;
}

/**
 * Creates the run-model middleware. Put it before any middleware that reads or
 * replaces `request.model` (retries, fallbacks, token accounting).
 *
 * @param options - the run models
 * @returns a `wrapModelCall` middleware
 */
export function createRunModelMiddleware(options: RunModelMiddlewareOptions): AgentMiddleware {
  const { models } = options;
  return createMiddleware({
    name: "RunModelMiddleware",
    wrapModelCall: async (request, handler) => {
      const { model } = await models.resolve(readRunOptions(request.runtime));
      return handler(model === request.model ? request : { ...request, model });
    },
  });
}
