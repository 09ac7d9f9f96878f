/**
 * Payload shapes of the `checkpoints`, `tasks` and `debug` stream modes, as
 * LangGraph's JS API server publishes them.
 *
 * LangGraph JS yields camelCase `parentConfig` and whole `RunnableConfig`s,
 * callbacks included (a `CallbackManager` in subgraphs). Clients expect
 * `parent_config` and the `{thread_id, checkpoint_ns, checkpoint_id,
 * checkpoint_map}` form added as `checkpoint` / `parent_checkpoint` (the shape
 * thread history returns), so the payloads are normalised before serialisation.
 */
import { serializeState, serializeValue } from "./serialization.js";

/** Config keys that are runtime machinery, not data. */
const RUNTIME_CONFIG_KEYS = new Set(["callbacks", "signal", "store", "writer", "cache", "interrupt"]);

/** A checkpoint reference in the form thread history uses. */
export interface CheckpointRef {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string | null;
  checkpoint_map: Record<string, unknown> | null;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The checkpoint a config points at, or null when it names no thread. */
export function checkpointRefOf(config: unknown): CheckpointRef | null {
  const configurable = asRecord(asRecord(config)?.["configurable"]);
  const threadId = configurable?.["thread_id"];
  if (!configurable || typeof threadId !== "string") return null;
  const checkpointId = configurable["checkpoint_id"];
  const checkpointNs = configurable["checkpoint_ns"];
  const checkpointMap = asRecord(configurable["checkpoint_map"]);
  return {
    thread_id: threadId,
    checkpoint_ns: typeof checkpointNs === "string" ? checkpointNs : "",
    checkpoint_id: typeof checkpointId === "string" ? checkpointId : null,
    checkpoint_map: checkpointMap ? (serializeValue(checkpointMap) as Record<string, unknown>) : null,
  };
}

/** A config without callbacks and other machinery, and without `__`-prefixed configurable keys. */
export function cleanConfig(config: unknown): unknown {
  const record = asRecord(config);
  if (!record) return serializeValue(config ?? null);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (RUNTIME_CONFIG_KEYS.has(key)) continue;
    if (key === "configurable") {
      const configurable = asRecord(value) ?? {};
      out[key] = Object.fromEntries(Object.entries(configurable).filter(([k]) => !k.startsWith("__")));
    } else out[key] = value;
  }
  return serializeValue(out);
}

function serializeTask(task: unknown): unknown {
  const record = asRecord(task);
  if (!record) return serializeValue(task);
  const { state, ...rest } = record;
  const out: Record<string, unknown> = { ...rest };
  // A subgraph task's `state` is the subgraph's config; clients want the checkpoint it names.
  const ref = state === undefined ? null : checkpointRefOf(state);
  if (ref) out["checkpoint"] = ref;
  else if (state !== undefined) out["state"] = state;
  return serializeValue(out);
}

function serializeCheckpoint(payload: unknown): unknown {
  const record = asRecord(payload);
  if (!record) return serializeValue(payload);
  const { config, parentConfig, parent_config: parentConfigSnake, values, tasks, ...rest } = record;
  const parent = parentConfig ?? parentConfigSnake;
  const out = serializeValue(rest) as Record<string, unknown>;
  out["config"] = cleanConfig(config);
  out["parent_config"] = parent === undefined ? null : cleanConfig(parent);
  out["values"] = serializeState(values ?? {});
  out["tasks"] = Array.isArray(tasks) ? tasks.map(serializeTask) : [];
  out["checkpoint"] = checkpointRefOf(config);
  out["parent_checkpoint"] = checkpointRefOf(parent);
  return out;
}

function serializeDebug(chunk: unknown): unknown {
  const record = asRecord(chunk);
  if (!record) return serializeValue(chunk);
  const { payload, ...rest } = record;
  const out = serializeValue(rest) as Record<string, unknown>;
  out["payload"] = record["type"] === "checkpoint" ? serializeCheckpoint(payload) : serializeTask(payload);
  return out;
}

/**
 * Serialises one chunk of a `checkpoints`, `tasks` or `debug` stream (other
 * modes go through {@link serializeValue} unchanged in shape).
 */
export function serializeModePayload(mode: string, chunk: unknown): unknown {
  switch (mode) {
    case "checkpoints":
      return serializeCheckpoint(chunk);
    case "tasks":
      return serializeTask(chunk);
    case "debug":
      return serializeDebug(chunk);
    case "values":
      return serializeState(chunk);
    default:
      return serializeValue(chunk);
  }
}
