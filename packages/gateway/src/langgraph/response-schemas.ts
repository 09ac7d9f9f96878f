/**
 * JSON Schemas of the LangGraph routes' answers (the OpenAPI document and
 * Fastify's serializer). Records are open: members not listed here pass through.
 */
import {
  STRING,
  RUN_STATUSES,
  THREAD_STATUSES,
  anyObject,
  nullableObject,
  openObject,
  timestamps,
} from "./schema-parts.js";

/** A checkpoint as answered (`null` before the first one). */
const checkpointRefSchema = {
  type: "object",
  nullable: true,
  additionalProperties: true,
  properties: {
    thread_id: STRING,
    checkpoint_ns: STRING,
    checkpoint_id: { type: "string", nullable: true },
    checkpoint_map: nullableObject("Checkpoint ids of subgraph namespaces."),
  },
} as const;

/** `Assistant`. */
export const assistantSchema = openObject({
  assistant_id: STRING,
  graph_id: STRING,
  name: STRING,
  description: { type: "string", nullable: true },
  config: anyObject,
  context: anyObject,
  metadata: anyObject,
  version: { type: "integer" },
  ...timestamps,
});

/** `Thread`. */
export const threadSchema = openObject({
  thread_id: STRING,
  ...timestamps,
  state_updated_at: STRING,
  metadata: anyObject,
  status: { type: "string", enum: [...THREAD_STATUSES] },
  config: anyObject,
  values: { description: "The state's values at the head checkpoint ({} before the first run)." },
  interrupts: { ...anyObject, description: "Pending interrupts by task id." },
});

/** `ThreadState`. */
export const threadStateSchema = openObject({
  values: {},
  next: { type: "array", items: STRING },
  tasks: { type: "array", items: anyObject },
  metadata: anyObject,
  created_at: { type: "string", nullable: true },
  checkpoint: checkpointRefSchema,
  parent_checkpoint: checkpointRefSchema,
  interrupts: { type: "array", items: {} },
});

/** `Run`. */
export const runSchema = openObject({
  run_id: STRING,
  thread_id: STRING,
  assistant_id: STRING,
  ...timestamps,
  status: { type: "string", enum: [...RUN_STATUSES] },
  metadata: anyObject,
  kwargs: anyObject,
  multitask_strategy: STRING,
  stop_reason: {
    type: "string",
    description: "Why the agent stopped early (e.g. loop_capped, token_capped, model_length_capped); absent otherwise.",
  },
});

/** `{checkpoint, configurable}` answer of `POST /threads/:thread_id/state`. */
export const stateUpdateResponseSchema = openObject({
  checkpoint: checkpointRefSchema,
  configurable: { ...anyObject, description: "The same checkpoint as a config." },
});

/** Documentation of SSE responses (not serialized by Fastify). */
export const SSE_DESCRIPTION =
  "Server-sent events: `event: metadata` first ({run_id, thread_id, attempt}), one event per stream-mode chunk " +
  "(`values`, `updates`, `messages`, `custom`, ..., `mode|ns` for subgraphs) with an `id:` usable as Last-Event-ID, " +
  "`error` ({error, message}) when the run fails, `event: end` / `data: null` last; `: heartbeat` comment lines while idle; " +
  "`gap` (then close) when the resume point is no longer kept.";
