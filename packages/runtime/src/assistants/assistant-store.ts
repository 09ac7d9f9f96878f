/**
 * The durable home of user-created assistants: an assistant is a graph id plus
 * the config, context and metadata its runs start from, owned by one user and
 * kept as a list of immutable versions (LangGraph Platform's assistants API).
 *
 * Every read and write takes the caller's {@link AssistantScope}: an assistant
 * outside the scope behaves exactly like a missing one (`get` answers
 * `undefined`, writes fail with `ASSISTANT_NOT_FOUND`), so an HTTP layer answers
 * 404 without a second check. `MemoryAssistantStore`, `SqliteAssistantStore`
 * (`@deerflow/runtime/sqlite`) and `PostgresAssistantStore`
 * (`@deerflow/runtime/postgres`) implement it; `assistantStoreConformance`
 * (`@deerflow/runtime/testing`) checks a plugin implementation.
 */

/**
 * Whose assistants a call may see: one user's (`{ owner }`) or everyone's
 * (`{ allOwners: true }`, for administrators). There is deliberately no
 * default, so a forgotten scope is a type error rather than a data leak.
 */
export type AssistantScope = { readonly owner: string } | { readonly allOwners: true };

/** The current state of an assistant (its latest, or `setLatest`-chosen, version). */
export interface AssistantRecord {
  assistantId: string;
  graphId: string;
  /** User id of the creator; never changes. */
  owner: string;
  name: string;
  description: string | null;
  /** The JSON part of a `RunnableConfig` (LangGraph wire names: `configurable`, `tags`, `recursion_limit`, ...). */
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** The version the assistant currently serves (1 at creation). */
  version: number;
  /** ISO-8601 UTC. */
  createdAt: string;
  /** ISO-8601 UTC of the last update, new version or `setLatest`. */
  updatedAt: string;
}

/** One immutable version of an assistant. */
export interface AssistantVersionRecord {
  assistantId: string;
  graphId: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  version: number;
  /** ISO-8601 UTC creation time of this version. */
  createdAt: string;
}

/** Input of {@link AssistantStore.create}. */
export interface CreateAssistantInput {
  assistantId: string;
  graphId: string;
  /** User id of the creator, from authentication (never from a request body). */
  owner: string;
  /** Default: the graph id. */
  name?: string;
  description?: string | null;
  config?: Record<string, unknown>;
  context?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  /**
   * `raise` (default) fails with `ASSISTANT_EXISTS` when the id is taken;
   * `do_nothing` returns the existing assistant when the same owner holds it
   * (another owner's assistant still fails with `ASSISTANT_EXISTS`: it is never returned).
   */
  ifExists?: "raise" | "do_nothing";
}

/**
 * Change of {@link AssistantStore.update}, which writes a new version: what is
 * absent is kept from the current version, `metadata` is shallow-merged, and
 * `config` / `context` replace the current ones when given (as the Platform does).
 */
export interface AssistantPatch {
  graphId?: string;
  name?: string;
  description?: string | null;
  config?: Record<string, unknown>;
  context?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/** Sortable fields of {@link AssistantSearchQuery}. */
export type AssistantSortField = "assistantId" | "graphId" | "name" | "createdAt" | "updatedAt";

/** Filter of {@link AssistantStore.count}. */
export interface AssistantFilter {
  graphId?: string;
  /** Case-insensitive substring of the name (matched literally: `%` and `_` are plain characters). */
  name?: string;
  /** JSON containment with PostgreSQL `jsonb @>` semantics. */
  metadata?: Record<string, unknown>;
}

/** Filter, page and order of {@link AssistantStore.search}. */
export interface AssistantSearchQuery extends AssistantFilter {
  /** 1..1000, default 10. */
  limit?: number;
  /** Default 0. */
  offset?: number;
  /** Default `createdAt`; ties are broken by `assistantId` in the same direction. */
  sortBy?: AssistantSortField;
  /** Default `desc`. */
  sortOrder?: "asc" | "desc";
}

/** Result of {@link AssistantStore.search}. */
export interface AssistantSearchResult {
  /** The requested page. */
  items: AssistantRecord[];
  /** How many assistants match the filter in the scope (for `X-Pagination-Total`). */
  total: number;
}

/** Page and filter of {@link AssistantStore.listVersions}. */
export interface AssistantVersionQuery {
  /** JSON containment on the version's metadata. */
  metadata?: Record<string, unknown>;
  /** 1..1000, default 10. */
  limit?: number;
  /** Default 0. */
  offset?: number;
}

/**
 * Storage of user-created assistants. Every method is atomic with respect to
 * concurrent callers on one instance or many: two concurrent updates produce
 * two distinct versions, never one lost write.
 *
 * Errors are `RuntimeError`s: `ASSISTANT_EXISTS`, `ASSISTANT_NOT_FOUND`
 * (also for an assistant outside the scope, or an unknown version),
 * `INVALID_ARGUMENT`, `STORE_UNAVAILABLE`, `CLOSED`.
 */
export interface AssistantStore {
  /** Creates an assistant at version 1. */
  create(input: CreateAssistantInput): Promise<AssistantRecord>;
  /** The assistant, or `undefined` when it is missing or outside `scope`. */
  get(assistantId: string, scope: AssistantScope): Promise<AssistantRecord | undefined>;
  /** Assistants of `scope` matching `query`, one page, with the total match count. */
  search(query: AssistantSearchQuery, scope: AssistantScope): Promise<AssistantSearchResult>;
  /** How many assistants of `scope` match `filter`. */
  count(filter: AssistantFilter, scope: AssistantScope): Promise<number>;
  /** Writes a new version (highest existing + 1) from the current one and `patch`, and makes it current. */
  update(assistantId: string, patch: AssistantPatch, scope: AssistantScope): Promise<AssistantRecord>;
  /** Deletes the assistant and all its versions. */
  delete(assistantId: string, scope: AssistantScope): Promise<void>;
  /** The assistant's versions, newest first. */
  listVersions(
    assistantId: string,
    query: AssistantVersionQuery,
    scope: AssistantScope,
  ): Promise<AssistantVersionRecord[]>;
  /** Makes an existing version current (its fields become the assistant's); later updates still number after the highest. */
  setLatest(assistantId: string, version: number, scope: AssistantScope): Promise<AssistantRecord>;
  /** Releases connections; later calls fail with `CLOSED`. Idempotent. */
  close(): Promise<void>;
}
