/**
 * The JSON the gateway's skills and thread-files routes answer, as TypeScript
 * types for clients (the web console imports them with `import type`). Each is
 * derived from the route's response schema, the one source that also drives
 * Fastify's serializer and the OpenAPI document; the gateway's own code builds
 * its answers against the same types.
 *
 * The LangGraph-compatible routes' shapes (threads, runs, assistants) are the
 * LangGraph SDK's types; a client takes them from `@langchain/langgraph-sdk`.
 */
import type { WireFinding } from "@deerflow/skills";
import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type { fileInfoSchema, threadFilesSchema, uploadLimitsSchema, uploadResponseSchema } from "./files/schemas.js";
import type {
  customSkillContentSchema,
  historyResponseSchema,
  skillFileListSchema,
  skillResponseSchema,
} from "./skills/schemas.js";

/** `T` without the `[key: string]: unknown` of objects whose schema leaves `additionalProperties` open, at every depth. */
type Closed<T> = T extends readonly (infer E)[]
  ? Closed<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Closed<T[K]> }
    : T;

/** The type of an answer. Its objects are closed: Fastify serializes only the members a response schema lists. */
type Answer<S extends JSONSchema> = Closed<FromSchema<S>>;

/** A thread file as the thread-files routes answer it (DeerFlow's `UploadedFileInfo`, no host path). */
export type WireFileInfo = Answer<typeof fileInfoSchema>;

/** `POST /api/threads/:thread_id/uploads`. */
export type WireUploadResult = Answer<typeof uploadResponseSchema>;

/** `GET /api/threads/:thread_id/uploads/limits`: the limits in force for one upload request. */
export type WireUploadLimits = Answer<typeof uploadLimitsSchema>;

/** `GET /api/threads/:thread_id/files`: the thread's outputs and uploads. */
export type WireThreadFileListing = Answer<typeof threadFilesSchema>;

/** DeerFlow's `SkillResponse` (one skill of `GET /api/skills`): `editable` is true only for custom skills. */
export type SkillResponse = Answer<typeof skillResponseSchema>;

/** A custom skill with its raw SKILL.md (`GET /api/skills/custom/:skill_name`). */
export type WireCustomSkill = Answer<typeof customSkillContentSchema>;

/** One file of `GET /api/skills/:skill_name/files`. */
export type WireSkillFile = Answer<typeof skillFileListSchema>["files"][number];

/** One record of `GET /api/skills/custom/:skill_name/history`. */
export type WireHistoryRecord = Answer<typeof historyResponseSchema>["history"][number];

/** A static-scanner finding, as a refused install or edit reports it (`SecurityBlockDetail.findings`). */
export type { WireFinding };
