/**
 * The lead's `task` tool for an agent compiled once: the subagent inherits the
 * model and tools of the run that delegates (read from the tool call's
 * config), not those of whichever run compiled the agent.
 *
 * Each call gets its own `SubagentExecutor`: the per-response cap of
 * `SubagentLimitMiddleware` already bounds a run's concurrent tasks (today's
 * per-run executor never had to queue), and executors shared across runs would
 * make one run's tasks wait for another's.
 */
import { SubagentExecutor, createTaskTool, type SubagentRegistry, type TaskExecutor } from "@deerflow/subagents";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Logger } from "../logger.js";
import type { RunModels } from "../models/run-models.js";
import { readRunOptions, type RunOptions } from "../run/run-options.js";

/** Options of {@link createRunTaskTool}. */
export interface RunTaskToolOptions {
  readonly registry: SubagentRegistry;
  /** The agent's model resolution: the run's model is the subagents' `inherit`. */
  readonly models: RunModels;
  /** The tools subagents choose from for a run (the lead's, without lead-only ones). */
  readonly parentTools: (run: RunOptions) => readonly StructuredToolInterface[];
  readonly logger: Logger;
}

/**
 * Creates the `task` tool.
 *
 * @param options - registry, models, parent tools, logger
 * @returns the tool
 */
export function createRunTaskTool(options: RunTaskToolOptions) {
  const { registry, models, logger } = options;
  const executor: TaskExecutor = {
    execute: (task, parent, callOptions) =>
      new SubagentExecutor({
        registry,
        resolveModel: (name) => (models.has(name) ? models.get(name) : undefined),
        logger,
      }).execute(task, parent, callOptions),
  };
  return createTaskTool({
    executor,
    registry,
    getParent: (config) => {
      const run = readRunOptions(config);
      return { model: models.current(run), tools: options.parentTools(run) };
    },
    logger,
  });
}
