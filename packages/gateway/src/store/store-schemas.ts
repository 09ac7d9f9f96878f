/**
 * JSON Schemas of the store routes' bodies, query and answers (the LangGraph
 * Platform's `StorePutRequest`, `StoreDeleteRequest`, `StoreSearchRequest`,
 * `StoreListNamespacesRequest`, `Item`, `SearchItemsResponse`,
 * `ListNamespaceResponse`). Types are derived from them.
 */
import type { FromSchema } from "json-schema-to-ts";

/** Longest namespace (labels) a client may name. */
const MAX_NAMESPACE_DEPTH = 32;
/** Largest page of a search or a namespace listing. */
const MAX_PAGE = 1000;

const label = { type: "string", minLength: 1, maxLength: 256 } as const;
const namespace = { type: "array", items: label, maxItems: MAX_NAMESPACE_DEPTH } as const;
/** A listing path: labels, or `*` for any one label. */
const matchPath = namespace;
const scalar = { type: ["string", "number", "boolean", "null"] } as const;

const operators = {
  type: "object",
  minProperties: 1,
  additionalProperties: false,
  properties: {
    $eq: scalar,
    $ne: scalar,
    $gt: { type: ["string", "number"] },
    $gte: { type: ["string", "number"] },
    $lt: { type: ["string", "number"] },
    $lte: { type: ["string", "number"] },
    $in: { type: "array", items: scalar, maxItems: 1000 },
    $nin: { type: "array", items: scalar, maxItems: 1000 },
  },
} as const;

/** A filter: top-level fields of the value, each equal to a scalar or compared with operators. */
const filter = {
  type: ["object", "null"],
  maxProperties: 64,
  additionalProperties: { anyOf: [scalar, operators] },
} as const;

export const storePutBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["namespace", "key", "value"],
  properties: {
    namespace: { ...namespace, minItems: 1 },
    key: { type: "string", minLength: 1, maxLength: 1024 },
    value: { type: "object", additionalProperties: true },
    index: { anyOf: [{ const: false }, { type: "array", items: { type: "string" } }, { type: "null" }] },
    ttl: { type: ["number", "null"], minimum: 0 },
  },
} as const;
export type StorePutBody = FromSchema<typeof storePutBodySchema>;

export const storeDeleteBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["key"],
  properties: {
    namespace: { anyOf: [namespace, { type: "null" }] },
    key: { type: "string", minLength: 1, maxLength: 1024 },
  },
} as const;
export type StoreDeleteBody = FromSchema<typeof storeDeleteBodySchema>;

export const storeGetQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    namespace: { type: "string", maxLength: 8192 },
    key: { type: "string", maxLength: 1024 },
    refresh_ttl: { type: "boolean" },
  },
} as const;
export type StoreGetQuery = FromSchema<typeof storeGetQuerySchema>;

export const storeSearchBodySchema = {
  type: ["object", "null"],
  additionalProperties: false,
  properties: {
    namespace_prefix: { anyOf: [namespace, { type: "null" }] },
    filter,
    limit: { type: "integer", minimum: 0, maximum: MAX_PAGE, default: 10 },
    offset: { type: "integer", minimum: 0, default: 0 },
    query: { type: ["string", "null"], maxLength: 8192 },
    refresh_ttl: { type: ["boolean", "null"] },
  },
} as const;
export type StoreSearchBody = FromSchema<typeof storeSearchBodySchema>;

export const storeNamespacesBodySchema = {
  type: ["object", "null"],
  additionalProperties: false,
  properties: {
    prefix: { anyOf: [matchPath, { type: "null" }] },
    suffix: { anyOf: [matchPath, { type: "null" }] },
    max_depth: { type: ["integer", "null"], minimum: 1, maximum: MAX_NAMESPACE_DEPTH },
    limit: { type: "integer", minimum: 0, maximum: MAX_PAGE, default: 100 },
    offset: { type: "integer", minimum: 0, default: 0 },
  },
} as const;
export type StoreNamespacesBody = FromSchema<typeof storeNamespacesBodySchema>;

const itemProperties = {
  namespace: { type: "array", items: { type: "string" } },
  key: { type: "string" },
  value: { type: "object", additionalProperties: true },
  created_at: { type: "string" },
  updated_at: { type: "string" },
} as const;

/** `GET /store/items`: the item, or `null` when there is none (as the Platform; the SDK's `getItem` returns null). */
export const storeItemOrNullSchema = {
  type: ["object", "null"],
  properties: itemProperties,
} as const;

export const storeSearchResponseSchema = {
  type: "object",
  required: ["items"],
  properties: {
    items: {
      type: "array",
      items: {
        type: "object",
        required: ["namespace", "key", "value", "created_at", "updated_at"],
        properties: { ...itemProperties, score: { type: ["number", "null"] } },
      },
    },
  },
} as const;

export const storeNamespacesResponseSchema = {
  type: "object",
  required: ["namespaces"],
  properties: { namespaces: { type: "array", items: { type: "array", items: { type: "string" } } } },
} as const;
