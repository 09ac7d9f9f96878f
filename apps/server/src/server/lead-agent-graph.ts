/**
 * The adapter between the runtime's worker and the lead agent, compiled once:
 * for each run the worker hands a {@link GraphFactoryContext} (`{ run,
 * checkpointer, store, signal }`), and gets back a view of the one agent that
 * streams with the run's checkpointer and store. The run's thread, user,
 * `model_name`... and its signal already travel in the stream options the
 * worker passes (`configurable`, `context`, `signal`).
 */
import type { LeadAgent } from "@deerflow/agent";
import type { GraphFactory, GraphFactoryContext, StreamableGraph } from "@deerflow/runtime";
import { silentLogger, type Logger } from "../logger.js";

/**
 * LangGraph's configurable key for a checkpointer lent to a graph for one call
 * (`CONFIG_KEY_CHECKPOINTER`, what a parent graph lends its subgraphs; a
 * compiled graph uses it instead of its own). The runtime wraps its saver per
 * run — recording the run's metadata and counting its writes, which an abort
 * or a rollback waits for — so each run lends its own view of the saver.
 */
const LENT_CHECKPOINTER = "__pregel_checkpointer";

/** The stream options of one run, with its checkpointer and store. */
function runOptions(options: Record<string, unknown> | undefined, ctx: GraphFactoryContext): Record<string, unknown> {
  const configurable = (options?.["configurable"] ?? {}) as Record<string, unknown>;
  return {
    ...options,
    configurable:
      ctx.checkpointer === undefined ? configurable : { ...configurable, [LENT_CHECKPOINTER]: ctx.checkpointer },
    ...(ctx.store === undefined ? {} : { store: ctx.store }),
  };
}

/**
 * Serves the compiled lead agent as a runtime {@link GraphFactory}: every run
 * streams the same agent (no per-run build or compile).
 *
 * @param agent - from `createLeadAgent(...)`, compiled with the runtime's checkpointer (for the state routes)
 * @param logger - receives one `run starting` record per run (run, thread, assistant ids)
 * @returns a graph factory for `RunManager({ graphs })`
 * @example
 * ```ts
 * const agent = await createLeadAgent({ ...deps, checkpointer });
 * const manager = new RunManager({ graphs: { lead_agent: leadAgentGraphFactory(agent) }, checkpointer });
 * ```
 */
export function leadAgentGraphFactory(agent: LeadAgent, logger: Logger = silentLogger): GraphFactory {
  return (ctx) => {
    const { run } = ctx;
    logger.info(
      { event: "run", runId: run.runId, threadId: run.threadId, assistantId: run.assistantId },
      "run starting",
    );
    const graph: StreamableGraph = {
      stream: (input, options) =>
        agent.stream(input as never, runOptions(options, ctx) as never) as unknown as Promise<AsyncIterable<unknown>>,
    };
    return graph;
  };
}
