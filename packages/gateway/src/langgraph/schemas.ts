/**
 * JSON Schemas of the LangGraph-compatible routes' request bodies, and the
 * TypeScript types of those bodies, derived from the schemas (the one source):
 * ajv validates with the schema (FastAPI-style 422s naming the field), the
 * OpenAPI document shows it, and the handlers read the type `FromSchema` makes
 * of it. Field names are the LangGraph API's (snake_case). Every optional member
 * also takes `null` (meaning absent), as the Python SDK and `useStream` send it.
 *
 * Bodies reject unknown members (the gateway's rule, and DeerFlow's
 * `extra="forbid"`), so every member either SDK line (1.x and 2.x) sends is
 * declared here; members the server does not act on are documented as ignored,
 * or accept only their default so a request relying on them fails loudly.
 *
 * Why `json-schema-to-ts`: the schemas stay the plain `as const` JSON Schema
 * objects Fastify's ajv compiles and the OpenAPI document shows (a builder
 * such as TypeBox would have meant rewriting them, with `nullable` outside its
 * type model); `FromSchema` is type-only, so nothing of it runs. It is a
 * dependency, not a dev one, because the published declarations of the body
 * types (`RunCreateBody`) refer to it.
 */
import { STREAM_MODES } from "@deerflow/runtime";
import type { FromSchema } from "json-schema-to-ts";
import { threadIdSchema } from "../schemas.js";
import {
  EMPTY_OBJECT,
  NULL_ONLY,
  THREAD_STATUSES,
  anyObject,
  assistantIdSchema,
  checkpointIdSchema,
  ignoredSelectSchema,
  nullableBoolean,
  nullableEnum,
  nullableObject,
  nullableStrings,
  openObject,
  optionalBody,
  orNull,
  paging,
  pickMembers,
  selectFieldsSchema,
  sortOrderSchema,
} from "./schema-parts.js";

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

/** A checkpoint named by a client, as validated. */
export type CheckpointBody = FromSchema<typeof checkpointObjectSchema>;

/** {@link checkpointObjectSchema} or null. */
const checkpointSchema = orNull(checkpointObjectSchema);

const streamModesSchema = {
  type: "array",
  nullable: true,
  maxItems: 16,
  items: { type: "string", enum: [...STREAM_MODES] },
  description:
    'One mode or a list; default ["values"]. `messages-tuple` streams LangGraph\'s `messages` mode (event name `messages`).',
} as const;

const interruptNodesSchema = {
  type: "array",
  nullable: true,
  items: { type: "string", minLength: 1 },
  description: '"*" (every node) or a list of node names.',
} as const;

/** The `config` of a run or assistant (a JSON `RunnableConfig`); other RunnableConfig members are accepted and ignored. */
export const runConfigSchema = orNull(
  openObject({
    tags: nullableStrings(),
    recursion_limit: { type: "integer", nullable: true, minimum: 1 },
    configurable: nullableObject("Per-run configuration values (`user_id` is the authenticated caller's)."),
    metadata: nullableObject("Run metadata."),
  }),
);

/** `RunCreate` (every create route: background, stream, wait; thread-bound and stateless). */
export const runCreateSchema = {
  type: "object",
  additionalProperties: false,
  required: ["assistant_id"],
  properties: {
    assistant_id: assistantIdSchema,
    input: {
      // Not `nullable`: ajv's type coercion would turn "", 0 and false into null (a run without the input).
      anyOf: [anyObject, NULL_ONLY],
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
          goto: {
            type: "array",
            nullable: true,
            items: {},
            description: "A node name, a list of them, or Send objects {node, input}.",
          },
        },
      },
      "Instead of input: resume an interrupt, update state, and/or go to nodes.",
    ),
    config: runConfigSchema,
    context: nullableObject("Static runtime context, merged over the assistant's."),
    metadata: nullableObject("Run metadata; also recorded in the run's checkpoints."),
    stream_mode: streamModesSchema,
    stream_subgraphs: nullableBoolean("Also stream subgraph events, named mode|ns."),
    stream_resumable: nullableBoolean("Accepted; every stream is resumable with Last-Event-ID."),
    on_disconnect: nullableEnum(
      ["cancel", "continue"],
      "What a stream's client disconnecting does to the run. Default continue.",
    ),
    multitask_strategy: nullableEnum(
      ["reject", "interrupt", "rollback", "enqueue"],
      "When the thread has an active run. Default reject (409).",
    ),
    if_not_exists: nullableEnum(["create", "reject"], "A missing thread: create it, or 404 (default)."),
    interrupt_before: interruptNodesSchema,
    interrupt_after: interruptNodesSchema,
    checkpoint_id: {
      ...checkpointIdSchema,
      nullable: true,
      description: "Start from this checkpoint (time travel, fork).",
    },
    checkpoint: checkpointSchema,
    on_completion: nullableEnum(["delete", "keep"], "Stateless runs: delete (default) or keep the temporary thread."),
    after_seconds: {
      type: "number",
      nullable: true,
      minimum: 0,
      maximum: 0,
      description: "Delayed runs are not supported: only 0.",
    },
    webhook: { type: "string", nullable: true, maxLength: 0, description: "Webhooks are not supported: only null." },
    feedback_keys: {
      type: "array",
      nullable: true,
      maxItems: 0,
      items: { type: "string" },
      description: "Not supported: only null or [].",
    },
    checkpoint_during: nullableBoolean("Deprecated spelling of `durability`: false is `exit`, true `async`."),
    durability: nullableEnum(
      ["sync", "async", "exit"],
      "When the run's checkpoints are written: after every step (`async`, the default; `sync` waits for each write) or once when the run ends (`exit`).",
    ),
    strict_resume: nullableBoolean("Ignored."),
    langsmith_tracer: nullableObject("Ignored."),
  },
} as const;
/** A run body as the schema lets it through (`stream_mode` and node lists are arrays after coercion). */
export type RunCreateBody = FromSchema<typeof runCreateSchema>;

/** `POST /threads`. */
export const threadCreateSchema = optionalBody({
  thread_id: { ...threadIdSchema, nullable: true },
  metadata: nullableObject("Thread metadata; graph_id/assistant_id name the graph of its state."),
  if_exists: nullableEnum(["raise", "do_nothing"], "raise (default, 409) or return the existing thread."),
  supersteps: { type: "array", nullable: true, maxItems: 0, items: {}, description: "Not supported: only null or []." },
  ttl: { description: "Ignored (threads do not expire)." },
});
/** A `POST /threads` body. */
export type ThreadCreateBody = FromSchema<typeof threadCreateSchema>;

/** `PATCH /threads/:thread_id`. */
export const threadPatchSchema = optionalBody({
  metadata: nullableObject("Merged (shallowly) into the thread's metadata."),
  ttl: { description: "Ignored." },
});
/** A `PATCH /threads/:thread_id` body. */
export type ThreadPatchBody = FromSchema<typeof threadPatchSchema>;

/** `POST /threads/search`. */
export const threadSearchSchema = optionalBody({
  metadata: nullableObject("JSON containment on metadata."),
  ids: { type: "array", nullable: true, maxItems: 1000, items: threadIdSchema },
  status: nullableEnum(THREAD_STATUSES),
  values: orNull(EMPTY_OBJECT, "Filtering on values is not supported: only {}."),
  ...paging(1000),
  sort_by: nullableEnum(["thread_id", "status", "created_at", "updated_at"]),
  sort_order: sortOrderSchema,
  select: selectFieldsSchema,
  extract: orNull(EMPTY_OBJECT, "Not supported: only {}."),
});
/** A `POST /threads/search` body. */
export type ThreadSearchBody = FromSchema<typeof threadSearchSchema>;

/** `POST /threads/count`. */
export const threadCountSchema = optionalBody(
  pickMembers(threadSearchSchema.properties, ["metadata", "status", "values"]),
);
/** A `POST /threads/count` body. */
export type ThreadCountBody = FromSchema<typeof threadCountSchema>;

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
/** A `POST /threads/:thread_id/state` body. */
export type StateUpdateBody = FromSchema<typeof stateUpdateSchema>;

/** `POST /threads/:thread_id/state/checkpoint`. */
export const stateAtCheckpointSchema = {
  type: "object",
  additionalProperties: false,
  required: ["checkpoint"],
  properties: {
    checkpoint: checkpointObjectSchema,
    subgraphs: nullableBoolean(),
    select: ignoredSelectSchema,
  },
} as const;
/** A `POST /threads/:thread_id/state/checkpoint` body. */
export type StateAtCheckpointBody = FromSchema<typeof stateAtCheckpointSchema>;

/** `POST /threads/:thread_id/history`. */
export const historySchema = optionalBody({
  limit: paging(1000).limit,
  before: { description: "A checkpoint id, or a config {configurable: {checkpoint_id}}: only older checkpoints." },
  metadata: nullableObject("Only checkpoints whose metadata contains these keys (run metadata included)."),
  checkpoint: checkpointSchema,
  select: ignoredSelectSchema,
});
/** A `POST /threads/:thread_id/history` body. */
export type HistoryBody = FromSchema<typeof historySchema>;

/** `GET /threads/:thread_id/history` query. */
export const historyQuerySchema = {
  type: "object",
  properties: { limit: historySchema.properties.limit, before: { ...checkpointIdSchema } },
} as const;
/** The `GET /threads/:thread_id/history` query. */
export type HistoryQuery = FromSchema<typeof historyQuerySchema>;

/** `POST /assistants/search`. */
export const assistantSearchSchema = optionalBody({
  graph_id: { type: "string", nullable: true },
  name: { type: "string", nullable: true },
  metadata: nullableObject("Every key must be present with an equal value."),
  ...paging(1000),
  sort_by: nullableEnum(["assistant_id", "graph_id", "name", "created_at", "updated_at"]),
  sort_order: sortOrderSchema,
  select: selectFieldsSchema,
});
/** A `POST /assistants/search` body. */
export type AssistantSearchBody = FromSchema<typeof assistantSearchSchema>;

/** `POST /assistants/count`. */
export const assistantCountSchema = optionalBody(
  pickMembers(assistantSearchSchema.properties, ["graph_id", "name", "metadata"]),
);
/** A `POST /assistants/count` body. */
export type AssistantCountBody = FromSchema<typeof assistantCountSchema>;
