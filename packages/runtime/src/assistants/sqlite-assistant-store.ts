/**
 * `SqliteAssistantStore`: the durable assistant store of a single server
 * instance, in a SQLite file (`better-sqlite3`), typically the run store's.
 *
 * Every write runs in one synchronous `BEGIN IMMEDIATE` transaction, so
 * nothing interleaves with it in the process and a second process waits for
 * the lock instead of acting on a stale read. Search selects by owner and
 * graph id in SQL and applies the name and metadata filters, the order and
 * the page with the same code as `MemoryAssistantStore` (a deployment's
 * assistants number in the thousands at most).
 */
import type { SqliteDatabase } from "../runs/sqlite/sqlite-database.js";
import { openSqliteStore, type SqliteStoreOptions } from "../runs/sqlite/sqlite-store-options.js";
import {
  applyAssistantPatch,
  assistantComparator,
  assistantExists,
  assistantMatches,
  assistantNotFound,
  assistantVersionNotFound,
  checkAssistantFilter,
  checkAssistantPatch,
  checkAssistantSearch,
  checkCreateAssistant,
  checkScope,
  checkVersion,
  checkVersionQuery,
  versionMatches,
  type AssistantContent,
  type CheckedAssistantFilter,
} from "./assistant-input.js";
import {
  contentColumns,
  toAssistant,
  toAssistantVersion,
  type AssistantRow,
  type AssistantVersionRow,
} from "./assistant-rows.js";
import type {
  AssistantFilter,
  AssistantPatch,
  AssistantRecord,
  AssistantScope,
  AssistantSearchQuery,
  AssistantSearchResult,
  AssistantStore,
  AssistantVersionQuery,
  AssistantVersionRecord,
  CreateAssistantInput,
} from "./assistant-store.js";
import { migrateSqliteAssistants } from "./sqlite-assistant-schema.js";

const STORE_NAME = "SqliteAssistantStore";

/** Options of {@link SqliteAssistantStore} (typically the run store's file). */
export type SqliteAssistantStoreOptions = SqliteStoreOptions;

const SCHEMA = { storeName: STORE_NAME, migrate: migrateSqliteAssistants };

/**
 * An {@link AssistantStore} in one SQLite file, for a single server instance.
 * The tables are created or migrated on construction.
 *
 * @example
 * ```ts
 * const assistants = new SqliteAssistantStore({ path: "./data/runs.sqlite" });
 * await assistants.create({ assistantId: "a1", graphId: "lead_agent", owner: "alice" });
 * ```
 */
export class SqliteAssistantStore implements AssistantStore {
  /** The database file (absolute), `":memory:"`, or the caller's `database.name`. */
  readonly path: string;
  readonly #db: SqliteDatabase;
  readonly #now: () => string;

  /**
   * Opens the database and creates or migrates the tables.
   *
   * @throws RuntimeError `CONFIG_INVALID` for malformed options; `STORE_UNAVAILABLE`
   *   naming the path when the file cannot be opened or migrated.
   */
  constructor(options: SqliteAssistantStoreOptions) {
    const { db, clock } = openSqliteStore(options, SCHEMA);
    this.#now = () => clock().toISOString();
    this.#db = db;
    this.path = this.#db.path;
  }

  /** Brings the tables to the current version (done by the constructor; idempotent). */
  async setup(): Promise<void> {
    this.#db.migrate();
  }

  async create(input: CreateAssistantInput): Promise<AssistantRecord> {
    const a = checkCreateAssistant(input);
    return this.#db.transaction("create", () => {
      const existing = this.#row(a.assistantId, undefined);
      if (existing !== undefined) {
        if (a.ifExists === "do_nothing" && existing.owner === a.owner) return toAssistant(existing);
        throw assistantExists(a.assistantId);
      }
      const now = this.#now();
      this.#db.run(
        `INSERT INTO assistants
           (assistant_id, owner, graph_id, name, description, config, context, metadata, version, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
        a.assistantId,
        a.owner,
        ...contentColumns(a),
        now,
        now,
      );
      this.#insertVersion(a.assistantId, 1, a, now);
      return toAssistant(this.#row(a.assistantId, undefined)!);
    });
  }

  async get(assistantId: string, scope: AssistantScope): Promise<AssistantRecord | undefined> {
    const owner = checkScope(scope);
    return this.#db.call("get", () => {
      const row = this.#row(assistantId, owner);
      return row === undefined ? undefined : toAssistant(row);
    });
  }

  async search(query: AssistantSearchQuery, scope: AssistantScope): Promise<AssistantSearchResult> {
    const q = checkAssistantSearch(query);
    const matches = this.#matches(q, checkScope(scope));
    matches.sort(assistantComparator(q.sortBy, q.sortOrder));
    return { items: matches.slice(q.offset, q.offset + q.limit), total: matches.length };
  }

  async count(filter: AssistantFilter, scope: AssistantScope): Promise<number> {
    return this.#matches(checkAssistantFilter(filter), checkScope(scope)).length;
  }

  async update(assistantId: string, patch: AssistantPatch, scope: AssistantScope): Promise<AssistantRecord> {
    const p = checkAssistantPatch(patch);
    const owner = checkScope(scope);
    return this.#db.transaction("update", () => {
      const current = this.#require(assistantId, owner);
      const content = applyAssistantPatch(toAssistant(current), p);
      const latest = this.#db.get<{ version: number | null }>(
        "SELECT max(version) AS version FROM assistant_versions WHERE assistant_id = ?",
        assistantId,
      );
      const version = (latest?.version ?? 0) + 1;
      const now = this.#now();
      this.#setCurrent(assistantId, content, version, now);
      this.#insertVersion(assistantId, version, content, now);
      return toAssistant(this.#row(assistantId, undefined)!);
    });
  }

  async delete(assistantId: string, scope: AssistantScope): Promise<void> {
    const owner = checkScope(scope);
    this.#db.transaction("delete", () => {
      this.#require(assistantId, owner);
      // Versions go by ON DELETE CASCADE only when the connection enforces foreign keys: delete them explicitly.
      this.#db.run("DELETE FROM assistant_versions WHERE assistant_id = ?", assistantId);
      this.#db.run("DELETE FROM assistants WHERE assistant_id = ?", assistantId);
    });
  }

  async listVersions(
    assistantId: string,
    query: AssistantVersionQuery,
    scope: AssistantScope,
  ): Promise<AssistantVersionRecord[]> {
    const q = checkVersionQuery(query);
    const owner = checkScope(scope);
    return this.#db.transaction("listVersions", () => {
      this.#require(assistantId, owner);
      return this.#db
        .all<AssistantVersionRow>(
          "SELECT * FROM assistant_versions WHERE assistant_id = ? ORDER BY version DESC",
          assistantId,
        )
        .map(toAssistantVersion)
        .filter((v) => versionMatches(v, q.metadata))
        .slice(q.offset, q.offset + q.limit);
    });
  }

  async setLatest(assistantId: string, version: number, scope: AssistantScope): Promise<AssistantRecord> {
    const wanted = checkVersion(version);
    const owner = checkScope(scope);
    return this.#db.transaction("setLatest", () => {
      this.#require(assistantId, owner);
      const row = this.#db.get<AssistantVersionRow>(
        "SELECT * FROM assistant_versions WHERE assistant_id = ? AND version = ?",
        assistantId,
        wanted,
      );
      if (row === undefined) throw assistantVersionNotFound(assistantId, wanted);
      this.#setCurrent(assistantId, toAssistantVersion(row), wanted, this.#now());
      return toAssistant(this.#row(assistantId, undefined)!);
    });
  }

  /** Closes the database when the store opened it; later calls fail with `CLOSED`. Idempotent. */
  async close(): Promise<void> {
    this.#db.close();
  }

  #row(assistantId: string, owner: string | undefined): AssistantRow | undefined {
    if (typeof assistantId !== "string") return undefined;
    return owner === undefined
      ? this.#db.get<AssistantRow>("SELECT * FROM assistants WHERE assistant_id = ?", assistantId)
      : this.#db.get<AssistantRow>("SELECT * FROM assistants WHERE assistant_id = ? AND owner = ?", assistantId, owner);
  }

  #require(assistantId: string, owner: string | undefined): AssistantRow {
    const row = this.#row(assistantId, owner);
    if (row === undefined) throw assistantNotFound(String(assistantId));
    return row;
  }

  #matches(filter: CheckedAssistantFilter, owner: string | undefined): AssistantRecord[] {
    return this.#db.call("search", () =>
      this.#db
        .all<AssistantRow>(
          `SELECT * FROM assistants WHERE (@owner IS NULL OR owner = @owner) AND (@graph IS NULL OR graph_id = @graph)`,
          { owner: owner ?? null, graph: filter.graphId ?? null },
        )
        .map(toAssistant)
        .filter((a) => assistantMatches(a, filter)),
    );
  }

  #setCurrent(assistantId: string, content: AssistantContent, version: number, now: string): void {
    this.#db.run(
      `UPDATE assistants SET graph_id = ?, name = ?, description = ?, config = ?, context = ?, metadata = ?,
         version = ?, updated_at = ? WHERE assistant_id = ?`,
      ...contentColumns(content),
      version,
      now,
      assistantId,
    );
  }

  #insertVersion(assistantId: string, version: number, content: AssistantContent, now: string): void {
    this.#db.run(
      `INSERT INTO assistant_versions
         (assistant_id, version, graph_id, name, description, config, context, metadata, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      assistantId,
      version,
      ...contentColumns(content),
      now,
    );
  }
}
