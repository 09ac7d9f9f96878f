/**
 * Makes a checkpointer record the run's config metadata (`run_id`,
 * `assistant_id`, user metadata) in every checkpoint's metadata.
 *
 * LangGraph Python savers merge `config.metadata` into checkpoint metadata;
 * LangGraph JS savers store only what the loop gives them (`source`, `step`,
 * `parents`). LangGraph's JS API server wraps its saver the same way, so history
 * can be filtered by `run_id` and a run's checkpoints found.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

const WRAPPED = Symbol.for("@deerflow/runtime/run-metadata-checkpointer");

/** Keys LangGraph itself manages or that identify the checkpoint, never copied from config metadata. */
const EXCLUDED_KEYS = new Set([
  "thread_id",
  "checkpoint_id",
  "checkpoint_ns",
  "checkpoint_map",
  "langgraph_step",
  "langgraph_node",
  "langgraph_triggers",
  "langgraph_path",
  "langgraph_checkpoint_ns",
]);

function configMetadata(config: unknown): Record<string, unknown> {
  const metadata = (config as { metadata?: unknown } | null | undefined)?.metadata;
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return {};
  return Object.fromEntries(
    Object.entries(metadata).filter(([key]) => !EXCLUDED_KEYS.has(key) && !key.startsWith("__")),
  );
}

const views = new WeakMap<BaseCheckpointSaver, BaseCheckpointSaver>();

/** True when `saver` already records run metadata (wrapped by {@link withRunMetadata}). */
export function recordsRunMetadata(saver: BaseCheckpointSaver): boolean {
  return (saver as unknown as Record<symbol, unknown>)[WRAPPED] === true;
}

/**
 * Returns a view of `saver` whose `put` stores `{...config.metadata, ...metadata}`
 * (LangGraph's own keys win). Every other method is the saver's own; wrapping
 * twice, or wrapping the same saver again, returns the same view.
 *
 * @example
 * ```ts
 * const graph = workflow.compile({ checkpointer: withRunMetadata(new MemorySaver()) });
 * await graph.invoke(input, { configurable: { thread_id }, metadata: { run_id } });
 * // (await checkpointer.getTuple(...)).metadata.run_id === run_id
 * ```
 */
export function withRunMetadata<T extends BaseCheckpointSaver>(saver: T): T {
  if (recordsRunMetadata(saver)) return saver;
  // One view per saver: graphs compiled for it (and caches keyed on it) see the same object on every run.
  const known = views.get(saver);
  if (known !== undefined) return known as T;
  const put: BaseCheckpointSaver["put"] = (config, checkpoint, metadata, newVersions) =>
    saver.put(config, checkpoint, { ...configMetadata(config), ...metadata }, newVersions);
  const bound = new Map<PropertyKey, { own: unknown; method: unknown }>();
  const view = new Proxy(saver, {
    get(target, prop) {
      if (prop === WRAPPED) return true;
      if (prop === "put") return put;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      // Bound to the real saver so private fields and `this`-based helpers keep working; bound once per method.
      const cached = bound.get(prop);
      if (cached?.own === value) return cached.method;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(prop, { own: value, method });
      return method;
    },
  });
  views.set(saver, view);
  return view;
}
