/**
 * The adapter between the runtime's worker and the lead-agent factory: the
 * worker hands a {@link GraphFactoryContext} (`{ run, checkpointer, store, signal }`),
 * the factory wants `{ threadId, runId, checkpointer, store, signal, config }`.
 */
import type { GraphFactory, GraphFactoryContext, StreamableGraph } from "@deerflow/runtime";
import type { LeadAgentContext, LeadAgentFactory } from "../agent/lead-agent-factory.js";
import { silentLogger, type Logger } from "../logger.js";

/**
 * The lead agent's context for one run: its thread and id, the runtime's
 * checkpointer and store, the run's abort signal, and the run's
 * `config.configurable` and `context` (where `model_name`, `subagent_enabled`
 * and `max_concurrent_subagents` are read; `user_id` only from `configurable`,
 * where the gateway writes the authenticated caller's id).
 *
 * @param ctx - what the worker passes for a run
 * @returns the factory's context
 */
export function leadAgentContextOf(ctx: GraphFactoryContext): LeadAgentContext {
  const { run } = ctx;
  const configurable = run.kwargs.config?.configurable;
  const context = run.kwargs.context;
  return {
    threadId: run.threadId,
    runId: run.runId,
    checkpointer: ctx.checkpointer,
    store: ctx.store,
    signal: ctx.signal,
    config: { ...(configurable === undefined ? {} : { configurable }), ...(context === undefined ? {} : { context }) },
  };
}

/**
 * Wraps the lead-agent factory as a runtime {@link GraphFactory}: each run gets
 * its own agent, compiled with the run's checkpointer and bound to its signal.
 *
 * @param factory - from `createLeadAgentFactory(deps)`
 * @param logger - receives one `run starting` record per run (run, thread, assistant ids)
 * @returns a graph factory for `RunManager({ graphs })`
 * @example
 * ```ts
 * const manager = new RunManager({ graphs: { lead_agent: leadAgentGraphFactory(createLeadAgentFactory(deps)) }, checkpointer });
 * ```
 */
export function leadAgentGraphFactory(factory: LeadAgentFactory, logger: Logger = silentLogger): GraphFactory {
  return async (ctx) => {
    const { run } = ctx;
    logger.info({ event: "run", runId: run.runId, threadId: run.threadId, assistantId: run.assistantId }, "run starting");
    return (await factory(leadAgentContextOf(ctx))) as unknown as StreamableGraph;
  };
}
