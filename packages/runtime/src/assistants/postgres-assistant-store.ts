/**
 * `PostgresAssistantStore`: the assistant store shared by every instance of a
 * deployment, in the run store's database and schema (its own tables and
 * migration list).
 *
 * Atomicity: `update` and `setLatest` lock the assistant row
 * (`SELECT ... FOR UPDATE`) before reading the highest version, so concurrent
 * updates on any number of instances queue and each writes the next version;
 * `create` relies on the primary key (`ON CONFLICT DO NOTHING`).
 */
import type { Logger } from "../logger.js";
import { one, type PgDatabase, type Queryable } from "../runs/postgres/pg-database.js";
import { openPgStore, type PostgresStoreOptions } from "../runs/postgres/pg-store-options.js";
import {
  applyAssistantPatch,
  assistantExists,
  assistantNotFound,
  assistantVersionNotFound,
  checkAssistantFilter,
  checkAssistantPatch,
  checkAssistantSearch,
  checkCreateAssistant,
  checkScope,
  checkVersion,
  checkVersionQuery,
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
  AssistantSortField,
  AssistantStore,
  AssistantVersionQuery,
  AssistantVersionRecord,
  CreateAssistantInput,
} from "./assistant-store.js";
import { migrateAssistants } from "./pg-assistant-schema.js";

/** Options of {@link PostgresAssistantStore} (typically the run store's pool and schema). */
export type PostgresAssistantStoreOptions = PostgresStoreOptions;

const SORT_COLUMNS: Record<AssistantSortField, string> = {
  assistantId: `assistant_id COLLATE "C"`,
  graphId: `graph_id COLLATE "C"`,
  name: `name COLLATE "C"`,
  createdAt: "created_at",
  updatedAt: "updated_at",
};

/**
 * An {@link AssistantStore} on PostgreSQL (`pg`), safe to share between many
 * server instances. Call {@link PostgresAssistantStore.setup} once per process before use.
 *
 * @example
 * ```ts
 * const runs = new PostgresRunStore({ pool, schema: "deerflow" });
 * const assistants = new PostgresAssistantStore({ pool, schema: "deerflow" });
 * await runs.setup();
 * await assistants.setup();
 * await assistants.create({ assistantId: randomUUID(), graphId: "lead_agent", owner: userId });
 * ```
 */
export class PostgresAssistantStore implements AssistantStore {
  /** The schema holding the tables. */
  readonly schema: string;
  readonly #db: PgDatabase;
  readonly #logger: Logger;
  readonly #now: () => string;
  readonly #assistants: string;
  readonly #versions: string;

  /**
   * @param options - a pool or a connection string, plus schema, logger, clock.
   * @throws RuntimeError `CONFIG_INVALID` for an unsafe schema name, both or neither of
   *   `pool` / `connectionString`, or a bad `maxAttempts`.
   */
  constructor(options: PostgresAssistantStoreOptions) {
    const opened = openPgStore(options, "PostgresAssistantStore");
    this.schema = opened.schema;
    this.#assistants = `${opened.quotedSchema}.assistants`;
    this.#versions = `${opened.quotedSchema}.assistant_versions`;
    this.#logger = opened.logger;
    const clock = opened.clock;
    this.#now = () => clock().toISOString();
    this.#db = opened.db;
  }

  /**
   * Creates the tables or migrates them to the current version. Idempotent and
   * safe to call from many processes at once.
   *
   * @throws RuntimeError `STORE_UNAVAILABLE` when the database cannot be reached or refuses the DDL.
   */
  async setup(): Promise<void> {
    await this.#db.transaction("setup", (c) => migrateAssistants(c, this.schema, this.#logger));
  }

  async create(input: CreateAssistantInput): Promise<AssistantRecord> {
    const a = checkCreateAssistant(input);
    return this.#db.transaction("create", async (c) => {
      const now = this.#now();
      const inserted = await one<AssistantRow>(
        c,
        `INSERT INTO ${this.#assistants}
           (assistant_id, owner, graph_id, name, description, config, context, metadata, version, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, 1, $9::timestamptz, $9::timestamptz)
         ON CONFLICT (assistant_id) DO NOTHING RETURNING *`,
        [a.assistantId, a.owner, ...contentColumns(a), now],
      );
      if (inserted === undefined) {
        const existing = await one<AssistantRow>(c, `SELECT * FROM ${this.#assistants} WHERE assistant_id = $1`, [
          a.assistantId,
        ]);
        if (existing !== undefined && a.ifExists === "do_nothing" && existing.owner === a.owner)
          return toAssistant(existing);
        throw assistantExists(a.assistantId);
      }
      await this.#insertVersion(c, toAssistant(inserted), now);
      return toAssistant(inserted);
    });
  }

  async get(assistantId: string, scope: AssistantScope): Promise<AssistantRecord | undefined> {
    const owner = checkScope(scope);
    if (typeof assistantId !== "string" || assistantId.includes("\u0000")) return undefined;
    const rows = await this.#db.read<AssistantRow>(
      "get",
      `SELECT * FROM ${this.#assistants} WHERE assistant_id = $1 AND ($2::text IS NULL OR owner = $2)`,
      [assistantId, owner ?? null],
    );
    return rows[0] === undefined ? undefined : toAssistant(rows[0]);
  }

  async search(query: AssistantSearchQuery, scope: AssistantScope): Promise<AssistantSearchResult> {
    const q = checkAssistantSearch(query);
    const owner = checkScope(scope);
    const { where, values } = this.#where(q, owner);
    const direction = q.sortOrder === "asc" ? "ASC" : "DESC";
    const rows = await this.#db.read<AssistantRow & { total: string }>(
      "search",
      `SELECT *, count(*) OVER () AS total FROM ${this.#assistants} WHERE ${where}
       ORDER BY ${SORT_COLUMNS[q.sortBy]} ${direction}, assistant_id COLLATE "C" ${direction}
       LIMIT ${q.limit} OFFSET ${q.offset}`,
      values,
    );
    // Past the last match no row carries the window count: count separately.
    const total = rows[0] !== undefined ? Number(rows[0].total) : q.offset > 0 ? await this.#count(q, owner) : 0;
    return { items: rows.map(toAssistant), total };
  }

  async count(filter: AssistantFilter, scope: AssistantScope): Promise<number> {
    const f = checkAssistantFilter(filter);
    return this.#count(f, checkScope(scope));
  }

  async update(assistantId: string, patch: AssistantPatch, scope: AssistantScope): Promise<AssistantRecord> {
    const p = checkAssistantPatch(patch);
    const owner = checkScope(scope);
    return this.#db.transaction("update", async (c) => {
      const current = await this.#lock(c, assistantId, owner);
      const content = applyAssistantPatch(current, p);
      const latest = await one<{ version: number }>(
        c,
        `SELECT max(version) AS version FROM ${this.#versions} WHERE assistant_id = $1`,
        [assistantId],
      );
      const version = (latest?.version ?? 0) + 1;
      const now = this.#now();
      const updated = await this.#setCurrent(c, assistantId, content, version, now);
      await this.#insertVersion(c, updated, now);
      return updated;
    });
  }

  async delete(assistantId: string, scope: AssistantScope): Promise<void> {
    const owner = checkScope(scope);
    if (typeof assistantId !== "string" || assistantId.includes("\u0000")) throw assistantNotFound(String(assistantId));
    await this.#db.transaction("delete", async (c) => {
      const deleted = await c.query(
        `DELETE FROM ${this.#assistants} WHERE assistant_id = $1 AND ($2::text IS NULL OR owner = $2)`,
        [assistantId, owner ?? null],
      );
      if (deleted.rowCount === 0) throw assistantNotFound(assistantId);
    });
  }

  async listVersions(
    assistantId: string,
    query: AssistantVersionQuery,
    scope: AssistantScope,
  ): Promise<AssistantVersionRecord[]> {
    const q = checkVersionQuery(query);
    const owner = checkScope(scope);
    if (typeof assistantId !== "string" || assistantId.includes("\u0000")) throw assistantNotFound(String(assistantId));
    // One statement: the visibility check and the versions come from the same snapshot.
    const rows = await this.#db.read<AssistantVersionRow>(
      "listVersions",
      `SELECT v.* FROM ${this.#assistants} a
         LEFT JOIN ${this.#versions} v ON v.assistant_id = a.assistant_id AND ($3::jsonb IS NULL OR v.metadata @> $3::jsonb)
       WHERE a.assistant_id = $1 AND ($2::text IS NULL OR a.owner = $2)
       ORDER BY v.version DESC NULLS LAST LIMIT ${q.limit} OFFSET ${q.offset}`,
      [assistantId, owner ?? null, q.metadata === undefined ? null : JSON.stringify(q.metadata)],
    );
    if (rows.length === 0) {
      // Either invisible, or the page is past the end: tell them apart.
      if ((await this.get(assistantId, scope)) === undefined) throw assistantNotFound(assistantId);
      return [];
    }
    return rows.filter((r) => r.version !== null).map(toAssistantVersion);
  }

  async setLatest(assistantId: string, version: number, scope: AssistantScope): Promise<AssistantRecord> {
    const wanted = checkVersion(version);
    const owner = checkScope(scope);
    return this.#db.transaction("setLatest", async (c) => {
      await this.#lock(c, assistantId, owner);
      const chosen = await one<AssistantVersionRow>(
        c,
        `SELECT * FROM ${this.#versions} WHERE assistant_id = $1 AND version = $2`,
        [assistantId, wanted],
      );
      if (chosen === undefined) throw assistantVersionNotFound(assistantId, wanted);
      return this.#setCurrent(c, assistantId, toAssistantVersion(chosen), wanted, this.#now());
    });
  }

  /** Closes the pool when the store created it; later calls fail with `CLOSED`. Idempotent. */
  async close(): Promise<void> {
    await this.#db.close();
  }

  async #lock(c: Queryable, assistantId: string, owner: string | undefined): Promise<AssistantRecord> {
    if (typeof assistantId !== "string" || assistantId.includes("\u0000")) throw assistantNotFound(String(assistantId));
    const row = await one<AssistantRow>(
      c,
      `SELECT * FROM ${this.#assistants} WHERE assistant_id = $1 AND ($2::text IS NULL OR owner = $2) FOR UPDATE`,
      [assistantId, owner ?? null],
    );
    if (row === undefined) throw assistantNotFound(assistantId);
    return toAssistant(row);
  }

  /** Makes `content` the assistant's current one, at `version`; the row is locked by the caller. */
  async #setCurrent(
    c: Queryable,
    assistantId: string,
    content: AssistantContent,
    version: number,
    now: string,
  ): Promise<AssistantRecord> {
    const row = await one<AssistantRow>(
      c,
      `UPDATE ${this.#assistants} SET graph_id = $2, name = $3, description = $4, config = $5::jsonb,
         context = $6::jsonb, metadata = $7::jsonb, version = $8, updated_at = $9::timestamptz
       WHERE assistant_id = $1 RETURNING *`,
      [assistantId, ...contentColumns(content), version, now],
    );
    return toAssistant(row!);
  }

  async #insertVersion(c: Queryable, a: AssistantRecord, now: string): Promise<void> {
    await c.query(
      `INSERT INTO ${this.#versions}
         (assistant_id, version, graph_id, name, description, config, context, metadata, created_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9::timestamptz)`,
      [a.assistantId, a.version, ...contentColumns(a), now],
    );
  }

  #where(f: CheckedAssistantFilter, owner: string | undefined): { where: string; values: unknown[] } {
    const clauses: string[] = [];
    const values: unknown[] = [];
    const add = (sql: (n: string) => string, value: unknown) => {
      values.push(value);
      clauses.push(sql(`$${values.length}`));
    };
    if (owner !== undefined) add((n) => `owner = ${n}`, owner);
    if (f.graphId !== undefined) add((n) => `graph_id = ${n}`, f.graphId);
    // strpos, not LIKE: the needle is matched literally (% _ \ are plain characters).
    if (f.name !== undefined) add((n) => `strpos(lower(name), ${n}) > 0`, f.name);
    if (f.metadata !== undefined) add((n) => `metadata @> ${n}::jsonb`, JSON.stringify(f.metadata));
    return { where: clauses.length === 0 ? "true" : clauses.join(" AND "), values };
  }

  async #count(f: CheckedAssistantFilter, owner: string | undefined): Promise<number> {
    const { where, values } = this.#where(f, owner);
    const rows = await this.#db.read<{ n: string }>(
      "count",
      `SELECT count(*) AS n FROM ${this.#assistants} WHERE ${where}`,
      values,
    );
    return Number(rows[0]?.n ?? 0);
  }
}
