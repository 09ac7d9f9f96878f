/**
 * JSON Schemas of the LangGraph-compatible routes: request validation (ajv,
 * FastAPI-style 422s naming the field) and the OpenAPI document. Field names
 * are the LangGraph API's (snake_case). Every optional member also takes
 * `null` (meaning absent), as the Python SDK and `useStream` send it.
 *
 * Bodies reject unknown members (the gateway's rule, and DeerFlow's
 * `extra="forbid"`), so every member either SDK line (1.x and 2.x) sends is
 * declared here; members the server does not act on are documented as ignored,
 * or accept only their default so a request relying on them fails loudly.
 */
import { STREAM_MODES } from "@deerflow/runtime";
import { THREAD_ID_PATTERN, threadIdSchema } from "../schemas.js";

/**
 * `schema` or `null`. Not ajv's `nullable`: with the gateway's type coercion a
 * nullable member turns `""`, `0` and `false` into `null`, so a wrong value
 * would silently mean "absent" instead of a 422 naming the member.
 */
const orNull = <S extends object>(schema: S, description?: string) =>
  ({ anyOf: [schema, { enum: [null] }], ...(description === undefined ? {} : { description }) }) as const;

const nullableObject = (description: string) => orNull({ type: "object", additionalProperties: true } as const, description);

/** An assistant id or graph id. */
export const assistantIdSchema = { type: "string", minLength: 1, maxLength: 128, description: "Assistant id, or a graph id (its first assistant)." } as const;

/** Run ids are UUIDs; the pattern only keeps path garbage out. */
export const runIdSchema = { type: "string", pattern: THREAD_ID_PATTERN, description: "Run id (a UUID)." } as const;

const checkpointIdSchema = { type: "string", minLength: 1, maxLength: 256 } as const;

/** `{thread_id?, checkpoint_ns?, checkpoint_id?, checkpoint_map?}`: a checkpoint named by a client. */
const checkpointObjectSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    thread_id: { type: "string", nullable: true },
    checkpoint_ns: { type: "string", nullable: true },
    checkpoint_id: { ...checkpointIdSchema, nullable: true },
    checkpoint_map: nullableObject("Checkpoint ids of subgraph namespaces."),
  },
} as const;

/** {@link checkpointObjectSchema} or null. */
export const checkpointSchema = orNull(checkpointObjectSchema);

const streamModesSchema = {
  type: "array",
  nullable: true,
  maxItems: 16,
  items: { type: "string", enum: [...STREAM_MODES] },
  description: 'One mode or a list; default ["values"]. `messages-tuple` streams LangGraph\'s `messages` mode (event name `messages`).',
} as const;

const interruptNodesSchema = {
  type: "array",
  nullable: true,
  items: { type: "string", minLength: 1 },
  description: '"*" (every node) or a list of node names.',
} as const;

/** The `config` of a run (a JSON `RunnableConfig`); other RunnableConfig members are accepted and ignored. */
export const runConfigSchema = orNull({
  type: "object",
  additionalProperties: true,
  properties: {
    tags: { type: "array", nullable: true, items: { type: "string" } },
    recursion_limit: { type: "integer", nullable: true, minimum: 1 },
    configurable: nullableObject("Per-run configuration values (`user_id` is the authenticated caller's)."),
    metadata: nullableObject("Run metadata."),
  },
} as const);

/** `RunCreate` (every create route: background, stream, wait; thread-bound and stateless). */
export const runCreateSchema = {
  type: "object",
  additionalProperties: false,
  required: ["assistant_id"],
  properties: {
    assistant_id: assistantIdSchema,
    input: {
      // Not `nullable`: ajv's type coercion would turn "", 0 and false into null (a run without the input).
      anyOf: [{ type: "object", additionalProperties: true }, { enum: [null] }],
      description:
        "Graph input: an object of state channels (e.g. {messages: [...]}); null or absent continues from the checkpoint (resume, command runs). " +
        "A string, number, boolean or array is refused (422): the served graphs are StateGraphs, which would drop it and run without the input.",
    },
    command: orNull(
      {
        type: "object",
        additionalProperties: false,
        properties: {
          resume: { description: "Value returned by the pending interrupt()." },
          update: { description: "State update: an object, or a list of [channel, value] pairs." },
          goto: { type: "array", nullable: true, items: {}, description: "A node name, a list of them, or Send objects {node, input}." },
        },
      } as const,
      "Instead of input: resume an interrupt, update state, and/or go to nodes.",
    ),
    config: runConfigSchema,
    context: nullableObject("Static runtime context, merged over the assistant's."),
    metadata: nullableObject("Run metadata; also recorded in the run's checkpoints."),
    stream_mode: streamModesSchema,
    stream_subgraphs: { type: "boolean", nullable: true, description: "Also stream subgraph events, named mode|ns." },
    stream_resumable: { type: "boolean", nullable: true, description: "Accepted; every stream is resumable with Last-Event-ID." },
    on_disconnect: { type: "string", nullable: true, enum: ["cancel", "continue", null], description: "What a stream's client disconnecting does to the run. Default continue." },
    multitask_strategy: {
      type: "string",
      nullable: true,
      enum: ["reject", "interrupt", "rollback", "enqueue", null],
      description: "When the thread has an active run. Default reject (409).",
    },
    if_not_exists: { type: "string", nullable: true, enum: ["create", "reject", null], description: "A missing thread: create it, or 404 (default)." },
    interrupt_before: interruptNodesSchema,
    interrupt_after: interruptNodesSchema,
    checkpoint_id: { ...checkpointIdSchema, nullable: true, description: "Start from this checkpoint (time travel, fork)." },
    checkpoint: checkpointSchema,
    on_completion: { type: "string", nullable: true, enum: ["delete", "keep", null], description: "Stateless runs: delete (default) or keep the temporary thread." },
    after_seconds: { type: "number", nullable: true, minimum: 0, maximum: 0, description: "Delayed runs are not supported: only 0." },
    webhook: { type: "string", nullable: true, maxLength: 0, description: "Webhooks are not supported: only null." },
    feedback_keys: { type: "array", nullable: true, maxItems: 0, items: { type: "string" }, description: "Not supported: only null or []." },
    checkpoint_during: { type: "boolean", nullable: true, description: "Ignored." },
    durability: { type: "string", nullable: true, enum: ["sync", "async", "exit", null], description: "Ignored." },
    strict_resume: { type: "boolean", nullable: true, description: "Ignored." },
    langsmith_tracer: nullableObject("Ignored."),
  },
} as const;

/** `POST /threads`. */
export const threadCreateSchema = {
  type: "object",
  nullable: true,
  additionalProperties: false,
  properties: {
    thread_id: { ...threadIdSchema, nullable: true },
    metadata: nullableObject("Thread metadata; graph_id/assistant_id name the graph of its state."),
    if_exists: { type: "string", nullable: true, enum: ["raise", "do_nothing", null], description: "raise (default, 409) or return the existing thread." },
    supersteps: { type: "array", nullable: true, maxItems: 0, items: {}, description: "Not supported: only null or []." },
    ttl: { description: "Ignored (threads do not expire)." },
  },
} as const;

/** `PATCH /threads/:thread_id`. */
export const threadPatchSchema = {
  type: "object",
  nullable: true,
  additionalProperties: false,
  properties: {
    metadata: nullableObject("Merged (shallowly) into the thread's metadata."),
    ttl: { description: "Ignored." },
  },
} as const;

const THREAD_STATUSES = ["idle", "busy", "interrupted", "error"] as const;
const RUN_STATUSES = ["pending", "running", "success", "error", "timeout", "interrupted"] as const;

const paging = (max: number) =>
  ({
    limit: { type: "integer", minimum: 1, maximum: max, default: 10 },
    offset: { type: "integer", minimum: 0, default: 0 },
  }) as const;

/** `POST /threads/search`. */
export const threadSearchSchema = {
  type: "object",
  nullable: true,
  additionalProperties: false,
  properties: {
    metadata: nullableObject("JSON containment on metadata."),
    ids: { type: "array", nullable: true, maxItems: 1000, items: threadIdSchema },
    status: { type: "string", nullable: true, enum: [...THREAD_STATUSES, null] },
    values: orNull({ type: "object", maxProperties: 0 } as const, "Filtering on values is not supported: only {}."),
    ...paging(1000),
    sort_by: { type: "string", nullable: true, enum: ["thread_id", "status", "created_at", "updated_at", null] },
    sort_order: { type: "string", nullable: true, enum: ["asc", "desc", null] },
    select: { type: "array", nullable: true, items: { type: "string" }, description: "Fields to return (all when absent)." },
    extract: orNull({ type: "object", maxProperties: 0 } as const, "Not supported: only {}."),
  },
} as const;

/** `POST /threads/count`. */
export const threadCountSchema = {
  type: "object",
  nullable: true,
  additionalProperties: false,
  properties: {
    metadata: threadSearchSchema.properties.metadata,
    status: threadSearchSchema.properties.status,
    values: threadSearchSchema.properties.values,
  },
} as const;

/** `POST /threads/:thread_id/state`. */
export const stateUpdateSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    values: { description: "The update, as if node as_node had returned it." },
    as_node: { type: "string", nullable: true, minLength: 1 },
    checkpoint_id: { ...checkpointIdSchema, nullable: true },
    checkpoint: checkpointSchema,
  },
} as const;

/** `POST /threads/:thread_id/state/checkpoint`. */
export const stateAtCheckpointSchema = {
  type: "object",
  additionalProperties: false,
  required: ["checkpoint"],
  properties: {
    checkpoint: checkpointObjectSchema,
    subgraphs: { type: "boolean", nullable: true },
    select: { type: "array", nullable: true, items: { type: "string" }, description: "Ignored." },
  },
} as const;

/** `POST /threads/:thread_id/history`. */
export const historySchema = {
  type: "object",
  nullable: true,
  additionalProperties: false,
  properties: {
    limit: { type: "integer", minimum: 1, maximum: 1000, default: 10 },
    before: { description: "A checkpoint id, or a config {configurable: {checkpoint_id}}: only older checkpoints." },
    metadata: nullableObject("Only checkpoints whose metadata contains these keys (run metadata included)."),
    checkpoint: checkpointSchema,
    select: { type: "array", nullable: true, items: { type: "string" }, description: "Ignored." },
  },
} as const;

/** `GET /threads/:thread_id/history` query. */
export const historyQuerySchema = {
  type: "object",
  properties: { limit: historySchema.properties.limit, before: { ...checkpointIdSchema } },
} as const;

/** `POST /assistants/search`. */
export const assistantSearchSchema = {
  type: "object",
  nullable: true,
  additionalProperties: false,
  properties: {
    graph_id: { type: "string", nullable: true },
    name: { type: "string", nullable: true },
    metadata: nullableObject("Every key must be present with an equal value."),
    ...paging(1000),
    sort_by: { type: "string", nullable: true, enum: ["assistant_id", "graph_id", "name", "created_at", "updated_at", null] },
    sort_order: { type: "string", nullable: true, enum: ["asc", "desc", null] },
    select: { type: "array", nullable: true, items: { type: "string" }, description: "Fields to return (all when absent)." },
  },
} as const;

/** `POST /assistants/count`. */
export const assistantCountSchema = {
  type: "object",
  nullable: true,
  additionalProperties: false,
  properties: { graph_id: assistantSearchSchema.properties.graph_id, name: assistantSearchSchema.properties.name, metadata: assistantSearchSchema.properties.metadata },
} as const;

// -- params, query strings, headers -----------------------------------------------------------

/** `/assistants/:assistant_id`. */
export const assistantParamsSchema = { type: "object", required: ["assistant_id"], properties: { assistant_id: assistantIdSchema } } as const;

/** `/threads/:thread_id/runs/:run_id`. */
export const runParamsSchema = { type: "object", required: ["thread_id", "run_id"], properties: { thread_id: threadIdSchema, run_id: runIdSchema } } as const;

/** `/runs/:run_id`. */
export const statelessRunParamsSchema = { type: "object", required: ["run_id"], properties: { run_id: runIdSchema } } as const;

/** `/threads/:thread_id/state/:checkpoint_id`. */
export const checkpointParamsSchema = {
  type: "object",
  required: ["thread_id", "checkpoint_id"],
  properties: { thread_id: threadIdSchema, checkpoint_id: checkpointIdSchema },
} as const;

const flagSchema = { type: "string", enum: ["0", "1", "true", "false"], default: "0" } as const;

/** `POST .../cancel` query. */
export const cancelQuerySchema = {
  type: "object",
  properties: {
    wait: { ...flagSchema, description: "1/true: answer 204 once the run has ended (else 202 at once)." },
    action: { type: "string", enum: ["interrupt", "rollback"], default: "interrupt" },
  },
} as const;

/** `GET .../runs/:run_id/stream` and `/join` query. */
export const joinQuerySchema = {
  type: "object",
  properties: {
    cancel_on_disconnect: { ...flagSchema, description: "1/true: cancel the run (interrupt) if this client disconnects." },
    stream_mode: { type: "array", items: { type: "string" }, description: "Only these modes' events (a JSON list or repeated parameter); default all." },
  },
} as const;

/** `Last-Event-ID` (resume after this event; -1 = from the first). */
export const lastEventIdHeadersSchema = {
  type: "object",
  properties: { "last-event-id": { type: "string", pattern: "^(-1|0|\\d{1,20}-\\d{1,20})$", description: 'An event id ("<ms>-<seq>"), or -1 for the whole stream.' } },
} as const;

/** `GET /threads/:thread_id/runs` query. */
export const runListQuerySchema = {
  type: "object",
  properties: { ...paging(1000), status: { type: "string", enum: [...RUN_STATUSES] }, select: { type: "array", items: { type: "string" }, description: "Ignored." } },
} as const;

/** `GET /threads/:thread_id/state` query. */
export const stateQuerySchema = {
  type: "object",
  properties: { subgraphs: { type: "boolean" }, select: { type: "array", items: { type: "string" }, description: "Ignored." } },
} as const;

// -- responses --------------------------------------------------------------------------------

const anyObject = { type: "object", additionalProperties: true } as const;
const checkpointRefSchema = {
  type: "object",
  nullable: true,
  additionalProperties: true,
  properties: {
    thread_id: { type: "string" },
    checkpoint_ns: { type: "string" },
    checkpoint_id: { type: "string", nullable: true },
    checkpoint_map: nullableObject("Checkpoint ids of subgraph namespaces."),
  },
} as const;

/** `Assistant`. */
export const assistantSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    assistant_id: { type: "string" },
    graph_id: { type: "string" },
    name: { type: "string" },
    description: { type: "string", nullable: true },
    config: anyObject,
    context: anyObject,
    metadata: anyObject,
    version: { type: "integer" },
    created_at: { type: "string" },
    updated_at: { type: "string" },
  },
} as const;

/** `Thread`. */
export const threadSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    thread_id: { type: "string" },
    created_at: { type: "string" },
    updated_at: { type: "string" },
    state_updated_at: { type: "string" },
    metadata: anyObject,
    status: { type: "string", enum: [...THREAD_STATUSES] },
    config: anyObject,
    values: { description: "The state's values at the head checkpoint ({} before the first run)." },
    interrupts: { type: "object", additionalProperties: true, description: "Pending interrupts by task id." },
  },
} as const;

/** `ThreadState`. */
export const threadStateSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    values: {},
    next: { type: "array", items: { type: "string" } },
    tasks: { type: "array", items: anyObject },
    metadata: anyObject,
    created_at: { type: "string", nullable: true },
    checkpoint: checkpointRefSchema,
    parent_checkpoint: checkpointRefSchema,
    interrupts: { type: "array", items: {} },
  },
} as const;

/** `Run`. */
export const runSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    run_id: { type: "string" },
    thread_id: { type: "string" },
    assistant_id: { type: "string" },
    created_at: { type: "string" },
    updated_at: { type: "string" },
    status: { type: "string", enum: [...RUN_STATUSES] },
    metadata: anyObject,
    kwargs: anyObject,
    multitask_strategy: { type: "string" },
  },
} as const;

/** `{checkpoint, configurable}` answer of `POST /threads/:thread_id/state`. */
export const stateUpdateResponseSchema = {
  type: "object",
  additionalProperties: true,
  properties: { checkpoint: checkpointRefSchema, configurable: { type: "object", additionalProperties: true, description: "The same checkpoint as a config." } },
} as const;

/** Documentation of SSE responses (not serialized by Fastify). */
export const SSE_DESCRIPTION =
  "Server-sent events: `event: metadata` first ({run_id, thread_id, attempt}), one event per stream-mode chunk " +
  "(`values`, `updates`, `messages`, `custom`, ..., `mode|ns` for subgraphs) with an `id:` usable as Last-Event-ID, " +
  "`error` ({error, message}) when the run fails, `event: end` / `data: null` last; `: heartbeat` comment lines while idle; " +
  "`gap` (then close) when the resume point is no longer kept.";
