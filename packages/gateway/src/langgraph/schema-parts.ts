/**
 * Building blocks of the LangGraph routes' JSON Schemas: the shapes that recur
 * (a member that also takes `null`, an optional closed body, an open response
 * object, paging) and the ids. Each helper returns a literal type, so
 * `FromSchema` (json-schema-to-ts) derives the TypeScript types from the
 * schemas built with them.
 */
import { THREAD_ID_PATTERN } from "../schemas.js";

/** The `null` branch of {@link orNull}. */
export const NULL_ONLY = { enum: [null] } as const;

/**
 * `schema` or `null`. Not ajv's `nullable`: with the gateway's type coercion a
 * nullable member turns `""`, `0` and `false` into `null`, so a wrong value
 * would silently mean "absent" instead of a 422 naming the member.
 */
export function orNull<const S extends object>(
  schema: S,
  description?: string,
): { readonly anyOf: readonly [S, typeof NULL_ONLY]; readonly description?: string } {
  return { anyOf: [schema, NULL_ONLY], ...(description === undefined ? {} : { description }) };
}

export const anyObject = { type: "object", additionalProperties: true } as const;

export const nullableObject = (description: string) => orNull(anyObject, description);

/** A string member taking one of `values`, or null (absent). Coercion cannot reach null here: every value is a string. */
export function nullableEnum<const V extends readonly string[]>(
  values: V,
  description?: string,
): {
  readonly type: "string";
  readonly nullable: true;
  readonly enum: readonly [...V, null];
  readonly description?: string;
} {
  return {
    type: "string",
    nullable: true,
    enum: [...values, null],
    ...(description === undefined ? {} : { description }),
  };
}

/** A boolean member, or null (absent). */
export function nullableBoolean(description?: string): {
  readonly type: "boolean";
  readonly nullable: true;
  readonly description?: string;
} {
  return { type: "boolean", nullable: true, ...(description === undefined ? {} : { description }) };
}

/** A list of strings, or null (absent). */
export function nullableStrings(description?: string): {
  readonly type: "array";
  readonly nullable: true;
  readonly items: { readonly type: "string" };
  readonly description?: string;
} {
  return {
    type: "array",
    nullable: true,
    items: { type: "string" },
    ...(description === undefined ? {} : { description }),
  };
}

/** An optional body (absent, `null` or an object) that rejects unknown members. */
export const optionalBody = <const P extends object>(properties: P) =>
  ({ type: "object", nullable: true, additionalProperties: false, properties }) as const;

/** The members `keys` of `properties`, in that order (a count body takes its search body's filters). */
export function pickMembers<P extends object, const K extends readonly (keyof P)[]>(
  properties: P,
  keys: K,
): Pick<P, K[number]> {
  return Object.fromEntries(keys.map((key) => [key, properties[key]])) as Pick<P, K[number]>;
}

/** A response object: the listed members, and any other. */
export const openObject = <const P extends object>(properties: P) =>
  ({ type: "object", additionalProperties: true, properties }) as const;

export const sortOrderSchema = nullableEnum(["asc", "desc"]);
export const selectFieldsSchema = nullableStrings("Fields to return (all when absent).");
export const ignoredSelectSchema = nullableStrings("Ignored.");
/** `select` of a query string (repeated parameter): accepted and ignored. */
export const ignoredSelectQuerySchema = { type: "array", items: { type: "string" }, description: "Ignored." } as const;

/** `{type: "string"}`. */
export const STRING = { type: "string" } as const;
/** `created_at` and `updated_at` of a response record. */
export const timestamps = { created_at: STRING, updated_at: STRING } as const;

/** Values of a thread's `status`. */
export const THREAD_STATUSES = ["idle", "busy", "interrupted", "error"] as const;
/** Values of a run's `status`. */
export const RUN_STATUSES = ["pending", "running", "success", "error", "timeout", "interrupted"] as const;
/** Filters the gateway does not support accept only `{}`. */
export const EMPTY_OBJECT = { type: "object", maxProperties: 0 } as const;

/** `limit` (default 10, at most `max`) and `offset` of a listing. */
export const paging = (max: number) =>
  ({
    limit: { type: "integer", minimum: 1, maximum: max, default: 10 },
    offset: { type: "integer", minimum: 0, default: 0 },
  }) as const;

/** An assistant id or graph id. */
export const assistantIdSchema = {
  type: "string",
  minLength: 1,
  maxLength: 128,
  description: "Assistant id, or a graph id (its first assistant).",
} as const;

/** Run ids are UUIDs; the pattern only keeps path garbage out. */
export const runIdSchema = { type: "string", pattern: THREAD_ID_PATTERN, description: "Run id (a UUID)." } as const;

/** A checkpoint id (an opaque string). */
export const checkpointIdSchema = { type: "string", minLength: 1, maxLength: 256 } as const;
