/**
 * Makes a `createAgent` result's `invoke`, `stream` and `streamEvents` (v3)
 * call its compiled graph directly, when nothing is lost by it.
 *
 * LangChain's `ReactAgent` does one thing before handing a call to its graph
 * (`#initializeMiddlewareStates`, whenever the agent has middleware): it reads
 * the thread's state (`graph.getState(config)`: a checkpoint read and its
 * deserialisation per run on a server, a thrown "no checkpointer" error with
 * its stack without one), puts the thread's values under the input, and adds
 * the defaults of the middlewares' state schemas for keys neither has. For the
 * lead agent that work is waste:
 *
 * - its state channels are declared by the agent (`LeadAgentState`), whose
 *   schemas answer `undefined` with their defaults themselves;
 * - the middlewares of the chain that keep a schema of their own
 *   (summarization, the token budget, LangChain's prebuilt ones) declare only
 *   optional fields, so the defaults are empty — checked here at compile time,
 *   per middleware: one whose schema yields a value for an empty state, or
 *   fails on one (a required field), keeps the agent on LangChain's path;
 * - the thread's values put back as input are values the channels already
 *   hold (LangGraph restores them from the checkpoint); re-writing them only
 *   re-ran the reducers, which is why token usage had to guard against
 *   counting a call twice.
 *
 * The graph carries the agent's static config (`ReactAgent` compiles it with
 * `withConfig` of its `callbacks`, `tags`, `metadata`, `runName`,
 * `maxConcurrency`, `recursionLimit` and `configurable`), so a direct call gets
 * the same defaults; a call's own config still wins. Other keys given to the
 * agent's `withConfig` (`context`, `signal`, `store`) would not be applied:
 * `createLeadAgent` gives it a recursion limit only. A `Command` or `null`
 * input went straight to the graph before too.
 *
 * What changes: a run's input step (`__start__`) writes the input only, not
 * the thread's values re-fed with it, so the reducers see each value once.
 */
import {
  interopSafeParseAsync,
  interopZodObjectMakeFieldsOptional,
  isInteropZodObject,
  type InteropZodObject,
} from "@langchain/core/utils/types";
import { ReducedValue, StateSchema } from "@langchain/langgraph";
import type { AgentMiddleware, ReactAgent } from "langchain";
import { z } from "zod";

/** The zod object langchain parses a middleware's state schema as, or `undefined` if it does not. */
function asZodObject(schema: unknown): InteropZodObject | undefined {
  if (StateSchema.isInstance(schema)) {
    const shape: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(schema.fields)) {
      shape[key] = ReducedValue.isInstance(field) ? (field.inputSchema ?? field.valueSchema) : field;
    }
    return z.object(shape as z.ZodRawShape) as unknown as InteropZodObject;
  }
  return isInteropZodObject(schema) ? schema : undefined;
}

/**
 * Whether LangChain's middleware-state initialisation adds nothing for these
 * middlewares: every state schema parses an empty state to an empty object.
 *
 * @param middleware - the agent's middlewares
 * @returns `false` when some middleware has a default or a required state field
 */
export async function middlewareStatesAreEmpty(middleware: readonly AgentMiddleware[]): Promise<boolean> {
  for (const m of middleware) {
    if (m.stateSchema === undefined) continue;
    const schema = asZodObject(m.stateSchema);
    if (schema === undefined) continue; // langchain skips these too
    const optional = interopZodObjectMakeFieldsOptional(schema, (key) => key.startsWith("_"));
    const parsed = await interopSafeParseAsync(optional, {});
    if (!parsed.success || Object.keys(parsed.data as object).length > 0) return false;
  }
  return true;
}

type StreamEvents = ReactAgent["streamEvents"];

/**
 * Points the agent's `invoke`, `stream` and v3 `streamEvents` at its compiled
 * graph (in place; `agent.graph` and the rest are unchanged). Call it only
 * when {@link middlewareStatesAreEmpty} holds for the agent's middlewares.
 *
 * @param agent - a `createAgent` result (or a `withConfig` of one)
 * @returns the same agent
 */
export function callGraphDirectly<T extends ReactAgent>(agent: T): T {
  const graph = agent.graph;
  const streamEvents: StreamEvents = agent.streamEvents.bind(agent);
  Object.assign(agent, {
    invoke: (state: unknown, config?: unknown) => graph.invoke(state as never, config as never),
    stream: (state: unknown, config?: unknown) => graph.stream(state as never, config as never),
    // Other versions already go straight to the graph in langchain; v3 initialised the states first.
    streamEvents: ((state, config, streamOptions) => {
      const options = config as { version?: string; transformers?: unknown } | undefined;
      if (options?.version !== "v3" || streamOptions != null) return streamEvents(state, config, streamOptions);
      const { transformers, version: _version, ...rest } = options;
      return graph.streamEvents(state as never, { ...rest, version: "v3", transformers } as never);
    }) as StreamEvents,
  });
  return agent;
}
