/**
 * The LangGraph Platform store API over a LangGraph `BaseStore`, per user:
 * `PUT|GET|DELETE /store/items`, `POST /store/items/search`,
 * `POST /store/namespaces`. The official SDK's `client.store` talks to it
 * unchanged. Every namespace is the caller's own (`store-owner.ts`).
 */
import type { BaseStore, Item, SearchItem } from "@langchain/langgraph-checkpoint";
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from "fastify";
import { GatewayError } from "../errors.js";
import { clientNamespace, ownerPrefix } from "./store-owner.js";
import {
  storeDeleteBodySchema,
  storeGetQuerySchema,
  storeItemOrNullSchema,
  storeNamespacesBodySchema,
  storeNamespacesResponseSchema,
  storePutBodySchema,
  storeSearchBodySchema,
  storeSearchResponseSchema,
  type StoreDeleteBody,
  type StoreGetQuery,
  type StoreNamespacesBody,
  type StorePutBody,
  type StoreSearchBody,
} from "./store-schemas.js";

/** Options of {@link storeRoutes}. */
export interface StoreRoutesOptions {
  /** The store served (`InMemoryStore`, `SqliteStore`, `PostgresGraphStore`, any `BaseStore`). */
  readonly store: BaseStore;
}

/** The 400 detail of `GET /store/items` without `key` (the Platform's text). */
export const STORE_KEY_REQUIRED_MESSAGE = "Key is required";

/** Rows read at most to answer a listing with a `suffix` (it is matched here, on the client's labels). */
const SUFFIX_SCAN_LIMIT = 100_000;

function checkLabels(namespace: readonly string[]): void {
  if (namespace.some((label) => label === "" || label.includes("."))) {
    throw new GatewayError(
      "VALIDATION_FAILED",
      `Namespace labels cannot be empty or contain periods. Received: ${JSON.stringify(namespace)}`,
    );
  }
}

/** A store's refusal of a label or filter is the client's error (422), whatever the store's error class. */
async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof Error && err.name === "InvalidNamespaceError") {
      throw new GatewayError("VALIDATION_FAILED", err.message, { cause: err });
    }
    throw err;
  }
}

function iso(date: Date | string): string {
  return new Date(date).toISOString();
}

function wireItem(owner: readonly string[], item: Item | SearchItem) {
  const namespace = clientNamespace(owner, item.namespace);
  if (namespace === undefined) return undefined;
  return {
    namespace,
    key: item.key,
    value: item.value,
    created_at: iso(item.createdAt),
    updated_at: iso(item.updatedAt),
    ...("score" in item && typeof item.score === "number" ? { score: item.score } : {}),
  };
}

function ownerOf(request: FastifyRequest): string[] {
  return ownerPrefix(request.principal.userId);
}

function nonEmpty(namespace: string[] | undefined): string[][] {
  return namespace === undefined || namespace.length === 0 ? [] : [namespace];
}

function compareNamespaces(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return (a[i] as string) < (b[i] as string) ? -1 : 1;
  }
  return a.length - b.length;
}

function suffixMatches(namespace: readonly string[], suffix: readonly string[]): boolean {
  if (suffix.length > namespace.length) return false;
  const start = namespace.length - suffix.length;
  return suffix.every((label, i) => label === "*" || namespace[start + i] === label);
}

/** Registers the five routes on an instance (under `/api` in the gateway). */
function registerStoreRoutes(app: FastifyInstance, store: BaseStore): void {
  const tags = ["store"];

  app.put<{ Body: StorePutBody }>(
    "/store/items",
    {
      schema: {
        summary: "Store or update an item",
        description:
          "Upserts the caller's item. `index` and `ttl` are accepted and ignored (no vector index, no expiry).",
        tags,
        body: storePutBodySchema,
        response: { 204: { type: "null", description: "Stored" } },
        "x-errors": [422],
      },
    },
    async (request, reply) => {
      const { namespace, key, value } = request.body;
      checkLabels(namespace);
      await storeCall(() => store.put([...ownerOf(request), ...namespace], key, value));
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: StoreGetQuery }>(
    "/store/items",
    {
      schema: {
        summary: "Get an item",
        description: "`namespace` is the labels joined with `.`. A missing item answers `null`, as the Platform.",
        tags,
        querystring: storeGetQuerySchema,
        response: { 200: storeItemOrNullSchema },
        "x-errors": [400, 422],
      },
    },
    async (request) => {
      const namespace = (request.query.namespace ?? "").split(".");
      checkLabels(namespace);
      const key = request.query.key;
      if (key === undefined || key === "") throw new GatewayError("BAD_REQUEST", STORE_KEY_REQUIRED_MESSAGE);
      const owner = ownerOf(request);
      const item = await storeCall(() => store.get([...owner, ...namespace], key));
      return item === null ? null : (wireItem(owner, item) ?? null);
    },
  );

  app.delete<{ Body: StoreDeleteBody }>(
    "/store/items",
    {
      schema: {
        summary: "Delete an item",
        description: "Deleting a missing item is not an error.",
        tags,
        body: storeDeleteBodySchema,
        response: { 204: { type: "null", description: "Deleted" } },
        "x-errors": [422],
      },
    },
    async (request, reply) => {
      const namespace = request.body.namespace ?? [];
      checkLabels(namespace);
      const { key } = request.body;
      await storeCall(() => store.delete([...ownerOf(request), ...namespace], key));
      return reply.code(204).send();
    },
  );

  app.post<{ Body: StoreSearchBody }>(
    "/store/items/search",
    {
      schema: {
        summary: "Search items",
        description:
          "The caller's items under `namespace_prefix` (whole labels), filtered by top-level fields (a value or `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`, `$nin`), newest first for the SQL stores.",
        tags,
        body: storeSearchBodySchema,
        response: { 200: storeSearchResponseSchema },
        "x-errors": [422],
      },
    },
    async (request) => {
      const body: NonNullable<StoreSearchBody> = request.body ?? { limit: 10, offset: 0 };
      const prefix = body.namespace_prefix ?? [];
      checkLabels(prefix);
      const owner = ownerOf(request);
      const items = await storeCall(() =>
        store.search([...owner, ...prefix], {
          ...(body.filter == null ? {} : { filter: body.filter }),
          limit: body.limit,
          offset: body.offset,
          ...(body.query == null ? {} : { query: body.query }),
        }),
      );
      return { items: items.flatMap((item) => wireItem(owner, item) ?? []) };
    },
  );

  app.post<{ Body: StoreNamespacesBody }>(
    "/store/namespaces",
    {
      schema: {
        summary: "List namespaces",
        description:
          "The caller's namespaces holding items: `prefix` and `suffix` match whole labels (`*` matches any one), `max_depth` truncates.",
        tags,
        body: storeNamespacesBodySchema,
        response: { 200: storeNamespacesResponseSchema },
        "x-errors": [422],
      },
    },
    async (request) => {
      const body: NonNullable<StoreNamespacesBody> = request.body ?? { limit: 100, offset: 0 };
      const prefix = body.prefix ?? [];
      const suffix = body.suffix ?? [];
      checkLabels(prefix);
      checkLabels(suffix);
      const owner = ownerOf(request);
      const { limit, offset } = body;
      if (suffix.length === 0) {
        const maxDepth = body.max_depth == null ? undefined : body.max_depth + owner.length;
        const listed = await storeCall(() =>
          store.listNamespaces({
            prefix: [...owner, ...prefix],
            limit,
            offset,
            ...(maxDepth === undefined ? {} : { maxDepth }),
          }),
        );
        return { namespaces: listed.flatMap((ns) => nonEmpty(clientNamespace(owner, ns))) };
      }
      // A suffix longer than a client namespace could match the owner's labels in the store: it is matched here, on
      // the client's labels, before truncation (as the stores do), over the whole listing.
      const listed = await storeCall(() =>
        store.listNamespaces({ prefix: [...owner, ...prefix], limit: SUFFIX_SCAN_LIMIT, offset: 0 }),
      );
      const seen = new Set<string>();
      const namespaces: string[][] = [];
      for (const stored of listed) {
        const own = clientNamespace(owner, stored);
        if (own === undefined || !suffixMatches(own, suffix)) continue;
        const truncated = body.max_depth == null ? own : own.slice(0, body.max_depth);
        const id = JSON.stringify(truncated);
        if (seen.has(id)) continue;
        seen.add(id);
        namespaces.push(truncated);
      }
      namespaces.sort(compareNamespaces);
      return { namespaces: namespaces.slice(offset, offset + limit) };
    },
  );
}

/**
 * The store routes as a plugin, for `createGateway({ store })` (mounted under `/api`) or `routes`.
 *
 * @param options - the store
 * @returns the plugin
 * @example
 * ```ts
 * const app = await createGateway({ store: new InMemoryStore() });
 * // new Client({ apiUrl: "http://127.0.0.1:2024/api" }).store.putItem(["prefs"], "theme", { color: "dark" })
 * ```
 */
export function storeRoutes(options: StoreRoutesOptions): FastifyPluginAsync {
  return async (app) => registerStoreRoutes(app, options.store);
}
