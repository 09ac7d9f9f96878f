/**
 * JSON Schemas of the LangGraph routes' path parameters, query strings and
 * headers (types are coerced: `?wait=1`, a repeated `stream_mode`).
 */
import type { FromSchema } from "json-schema-to-ts";
import { threadIdSchema } from "../schemas.js";
import {
  RUN_STATUSES,
  assistantIdSchema,
  checkpointIdSchema,
  ignoredSelectQuerySchema,
  paging,
  runIdSchema,
} from "./schema-parts.js";

/** `/assistants/:assistant_id`. */
export const assistantParamsSchema = {
  type: "object",
  required: ["assistant_id"],
  properties: { assistant_id: assistantIdSchema },
} as const;

/** `/threads/:thread_id/runs/:run_id`. */
export const runParamsSchema = {
  type: "object",
  required: ["thread_id", "run_id"],
  properties: { thread_id: threadIdSchema, run_id: runIdSchema },
} as const;

/** `/runs/:run_id`. */
export const statelessRunParamsSchema = {
  type: "object",
  required: ["run_id"],
  properties: { run_id: runIdSchema },
} as const;

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
/** The cancel query, defaults applied. */
export type CancelQuery = FromSchema<typeof cancelQuerySchema>;

/** `GET .../runs/:run_id/stream` and `/join` query. */
export const joinQuerySchema = {
  type: "object",
  properties: {
    cancel_on_disconnect: {
      ...flagSchema,
      description: "1/true: cancel the run (interrupt) if this client disconnects.",
    },
    stream_mode: {
      type: "array",
      items: { type: "string" },
      description: "Only these modes' events (a JSON list or repeated parameter); default all.",
    },
  },
} as const;
/** The join and join-stream query, defaults applied. */
export type JoinQuery = FromSchema<typeof joinQuerySchema>;

/** `Last-Event-ID` (resume after this event; -1 = from the first). */
export const lastEventIdHeadersSchema = {
  type: "object",
  properties: {
    "last-event-id": {
      type: "string",
      pattern: "^(-1|0|\\d{1,20}-\\d{1,20})$",
      description: 'An event id ("<ms>-<seq>"), or -1 for the whole stream.',
    },
  },
} as const;

/** `GET /threads/:thread_id/runs` query. */
export const runListQuerySchema = {
  type: "object",
  properties: {
    ...paging(1000),
    status: { type: "string", enum: [...RUN_STATUSES] },
    select: ignoredSelectQuerySchema,
  },
} as const;
/** The run listing query, defaults applied. */
export type RunListQuery = FromSchema<typeof runListQuerySchema>;

/** `GET /threads/:thread_id/state` query. */
export const stateQuerySchema = {
  type: "object",
  properties: { subgraphs: { type: "boolean" }, select: ignoredSelectQuerySchema },
} as const;
/** The state query. */
export type StateQuery = FromSchema<typeof stateQuerySchema>;
