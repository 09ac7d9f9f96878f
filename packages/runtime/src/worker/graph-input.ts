/**
 * What a run hands to `graph.stream()`: the input (or resume `Command`) and
 * the options built from the run's kwargs.
 */
import { Command, Send } from "@langchain/langgraph";
import type { RunCommand, RunKwargs, RunRecord } from "../runs/types.js";

/** Builds the LangGraph `Command` for a run's `command` kwarg. */
export function toGraphCommand(command: RunCommand): Command {
  const params: { resume?: unknown; update?: Record<string, unknown> | [string, unknown][]; goto?: (string | Send)[] } =
    {};
  if (command.resume !== undefined) params.resume = command.resume;
  if (command.update !== undefined && command.update !== null) params.update = command.update;
  if (command.goto !== undefined && command.goto !== null) {
    const gotos: unknown[] = Array.isArray(command.goto) ? command.goto : [command.goto];
    // Besides node names, accept the LangGraph API's `{node, input}` sends.
    params.goto = gotos.map((item) => {
      if (typeof item === "string") return item;
      const send = item as { node?: unknown; input?: unknown };
      return new Send(String(send.node), send.input);
    });
  }
  return new Command(params);
}

/** The graph input of a run: a `Command` when `command` is set, else `input` (absent → null, continue from the checkpoint). */
export function graphInputOf(kwargs: RunKwargs): unknown {
  if (kwargs.command !== undefined && kwargs.command !== null) return toGraphCommand(kwargs.command);
  return kwargs.input ?? null;
}

/** LangGraph's own configurable keys: a client setting them could write outside the thread's root namespace. */
function isInternalConfigurableKey(key: string): boolean {
  return key.startsWith("__pregel_") || key === "checkpoint_ns" || key === "checkpoint_map";
}

/**
 * The `graph.stream()` options of a run. The thread, run and assistant ids
 * are injected into `configurable` and `metadata` (checkpoints then record
 * `run_id`); LangGraph's internal `configurable` keys (`__pregel_*`,
 * `checkpoint_ns`, `checkpoint_map`) are never taken from the client.
 */
export function graphStreamOptionsOf(
  run: RunRecord,
  graphModes: readonly string[],
  signal: AbortSignal,
): Record<string, unknown> {
  const kwargs = run.kwargs;
  const config = kwargs.config ?? {};
  const ids = { thread_id: run.threadId, run_id: run.runId, assistant_id: run.assistantId };
  const clientConfigurable = Object.fromEntries(
    Object.entries(config.configurable ?? {}).filter(([key]) => !isInternalConfigurableKey(key)),
  );
  const configurable: Record<string, unknown> = { ...clientConfigurable, ...ids };
  if (kwargs.checkpointId) configurable["checkpoint_id"] = kwargs.checkpointId;
  const options: Record<string, unknown> = {
    configurable,
    metadata: { ...run.metadata, ...config.metadata, ...ids },
    streamMode: [...graphModes],
    subgraphs: kwargs.streamSubgraphs === true,
    signal,
  };
  // Only set what was given: an explicit `undefined` would override the graph's own defaults.
  if (config.tags !== undefined) options["tags"] = config.tags;
  if (config.recursionLimit !== undefined) options["recursionLimit"] = config.recursionLimit;
  if (kwargs.context !== undefined) options["context"] = kwargs.context;
  if (kwargs.interruptBefore !== undefined) options["interruptBefore"] = kwargs.interruptBefore;
  if (kwargs.interruptAfter !== undefined) options["interruptAfter"] = kwargs.interruptAfter;
  if (kwargs.durability !== undefined) options["durability"] = kwargs.durability;
  return options;
}
