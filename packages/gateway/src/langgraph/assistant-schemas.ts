/**
 * JSON Schemas of the assistant write routes (create, update, versions,
 * latest, delete) and of an assistant version, with the body types derived
 * from them (see `schemas.ts` for why `FromSchema`). Names are the LangGraph
 * API's; every optional member also takes `null` (absent), as the SDKs send it.
 */
import type { FromSchema } from "json-schema-to-ts";
import { runConfigSchema } from "./schemas.js";
import { anyObject, nullableEnum, nullableObject, openObject, optionalBody, paging } from "./schema-parts.js";

/** Ids a created assistant may take: what the registry accepts for system assistants. */
const NEW_ASSISTANT_ID_PATTERN = "^[A-Za-z0-9_.:-]{1,128}$";

const graphIdSchema = {
  type: "string",
  minLength: 1,
  maxLength: 128,
  description: "A graph the server serves.",
} as const;
const nameSchema = { type: "string", nullable: true, maxLength: 10_000 } as const;

const writableMembers = {
  config: runConfigSchema,
  context: nullableObject("Static runtime context of the assistant's runs (a run's context is merged over it)."),
  metadata: nullableObject("Assistant metadata; an update merges it into the current version's."),
  name: { ...nameSchema, description: "Default: the graph id." },
  description: { ...nameSchema, description: "Free text, or null." },
} as const;

/** `POST /assistants`. */
export const assistantCreateSchema = {
  type: "object",
  additionalProperties: false,
  required: ["graph_id"],
  properties: {
    graph_id: graphIdSchema,
    assistant_id: {
      type: "string",
      nullable: true,
      pattern: NEW_ASSISTANT_ID_PATTERN,
      description: "Default: a new UUID.",
    },
    if_exists: nullableEnum(
      ["raise", "do_nothing"],
      "What a taken assistant_id does: 409 (raise, default) or return the caller's existing assistant.",
    ),
    ...writableMembers,
  },
} as const;
/** A `POST /assistants` body. */
export type AssistantCreateBody = FromSchema<typeof assistantCreateSchema>;

/** `PATCH /assistants/:assistant_id`: a new version from the current one. */
export const assistantPatchSchema = optionalBody({
  graph_id: { ...graphIdSchema, nullable: true },
  ...writableMembers,
});
/** A `PATCH /assistants/:assistant_id` body. */
export type AssistantPatchBody = FromSchema<typeof assistantPatchSchema>;

/** `POST /assistants/:assistant_id/versions`. */
export const assistantVersionsSchema = optionalBody({
  metadata: nullableObject("Only versions whose metadata contains these keys."),
  ...paging(1000),
});
/** A `POST /assistants/:assistant_id/versions` body. */
export type AssistantVersionsBody = FromSchema<typeof assistantVersionsSchema>;

/** `POST /assistants/:assistant_id/latest`. */
export const assistantLatestSchema = {
  type: "object",
  additionalProperties: false,
  required: ["version"],
  properties: { version: { type: "integer", minimum: 1 } },
} as const;
/** A `POST /assistants/:assistant_id/latest` body. */
export type AssistantLatestBody = FromSchema<typeof assistantLatestSchema>;

/** `DELETE /assistants/:assistant_id` query. */
export const assistantDeleteQuerySchema = {
  type: "object",
  properties: {
    delete_threads: {
      type: "boolean",
      default: false,
      description: "Also delete the caller's threads whose latest run used this assistant.",
    },
  },
} as const;
/** The `DELETE /assistants/:assistant_id` query. */
export type AssistantDeleteQuery = FromSchema<typeof assistantDeleteQuerySchema>;

/** `AssistantVersion`. */
export const assistantVersionSchema = openObject({
  assistant_id: { type: "string" },
  graph_id: { type: "string" },
  name: { type: "string" },
  description: { type: "string", nullable: true },
  config: anyObject,
  context: anyObject,
  metadata: anyObject,
  version: { type: "integer" },
  created_at: { type: "string" },
});
