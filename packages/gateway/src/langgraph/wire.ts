/**
 * Runtime records (camelCase) to the LangGraph API's JSON shapes (snake_case).
 */
import type { AssistantVersionRecord, RunKwargs, RunRecord, ThreadRecord } from "@deerflow/runtime";
import type { ServedAssistant } from "./assistant-directory.js";
import type { RegisteredAssistant } from "./assistant-registry.js";
import type { WireThreadState } from "./state-graph.js";

/** The LangGraph `Assistant` JSON of a served assistant, or of a system one as registered (always at version 1). */
export function toWireAssistant(assistant: ServedAssistant | RegisteredAssistant): Record<string, unknown> {
  const served = "isSystem" in assistant ? assistant : undefined;
  return {
    assistant_id: assistant.assistantId,
    graph_id: assistant.graphId,
    name: assistant.name ?? assistant.graphId,
    description: assistant.description ?? null,
    config: assistant.config ?? {},
    context: assistant.context ?? {},
    metadata: assistant.metadata ?? {},
    version: served?.version ?? 1,
    created_at: assistant.createdAt,
    updated_at: served?.updatedAt ?? assistant.createdAt,
  };
}

/** The LangGraph `AssistantVersion` JSON. */
export function toWireAssistantVersion(version: AssistantVersionRecord): Record<string, unknown> {
  return {
    assistant_id: version.assistantId,
    graph_id: version.graphId,
    name: version.name,
    description: version.description,
    config: version.config,
    context: version.context,
    metadata: version.metadata,
    version: version.version,
    created_at: version.createdAt,
  };
}

function defined(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

/** A run's kwargs with LangGraph's names. */
function toWireKwargs(kwargs: RunKwargs, onDisconnect: string): Record<string, unknown> {
  const config = kwargs.config;
  return defined({
    input: kwargs.input,
    command: kwargs.command,
    config:
      config === undefined
        ? undefined
        : defined({
            configurable: config.configurable,
            tags: config.tags,
            metadata: config.metadata,
            recursion_limit: config.recursionLimit,
          }),
    context: kwargs.context,
    stream_mode: kwargs.streamMode,
    stream_subgraphs: kwargs.streamSubgraphs,
    interrupt_before: kwargs.interruptBefore,
    interrupt_after: kwargs.interruptAfter,
    checkpoint_id: kwargs.checkpointId,
    on_disconnect: onDisconnect,
  });
}

/** The LangGraph `Run` JSON. */
export function toWireRun(run: RunRecord): Record<string, unknown> {
  return {
    run_id: run.runId,
    thread_id: run.threadId,
    assistant_id: run.assistantId,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    status: run.status,
    metadata: run.metadata,
    kwargs: toWireKwargs(run.kwargs, run.onDisconnect),
    multitask_strategy: run.multitaskStrategy,
    ...(run.error === null ? {} : { error: run.error }),
    // DeerFlow's RunResponse field: why the agent stopped early (loop_capped, model_length_capped…).
    ...(run.stopReason === null ? {} : { stop_reason: run.stopReason }),
  };
}

/** Pending interrupts grouped by task id, as `Thread.interrupts`. */
function interruptsByTask(state: WireThreadState): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const task of state.tasks) if (task.interrupts.length > 0) out[task.id] = task.interrupts;
  return out;
}

/** The LangGraph `Thread` JSON: the record's status and metadata, the state's values and interrupts. */
export function toWireThread(thread: ThreadRecord, state: WireThreadState): Record<string, unknown> {
  return {
    thread_id: thread.threadId,
    created_at: thread.createdAt,
    updated_at: thread.updatedAt,
    state_updated_at: state.created_at ?? thread.updatedAt,
    metadata: thread.metadata,
    status: thread.status,
    config: {},
    values: state.values,
    interrupts: interruptsByTask(state),
  };
}

/** Keeps only the `select`ed top-level fields (all when `select` is empty or absent). */
export function selectFields(
  value: Record<string, unknown>,
  select: readonly string[] | null | undefined,
): Record<string, unknown> {
  if (select === null || select === undefined || select.length === 0) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => select.includes(key)));
}
