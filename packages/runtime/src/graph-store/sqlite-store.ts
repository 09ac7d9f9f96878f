/**
 * `SqliteStore`: LangGraph's long-term store (`BaseStore`) in one SQLite file,
 * the embedded default for a single instance (LangGraph JS ships no SQLite
 * store; `@langchain/langgraph-checkpoint-sqlite` has the saver only).
 *
 * One row per item (namespace, key, JSON value, timestamps). A batch runs in
 * one transaction, so its writes land together or not at all; reads see the
 * state before the batch's writes, as LangGraph's stores do. Namespace
 * prefixes are index range scans; filters are applied while the rows stream,
 * stopping once `offset + limit` items matched. Vector search (`index`,
 * `query`) and TTLs are not supported: `query` is ignored as by an
 * `InMemoryStore` without an index.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";
import Database from "better-sqlite3";
import { RuntimeError } from "../errors.js";
import { decodeNamespace, encodeNamespace, prefixRange } from "./namespace-path.js";
import { checkNamespaceQuery, namespacePage, pageOf, PageCollector } from "./result-pages.js";

/** Options of {@link SqliteStore}. */
export interface SqliteStoreOptions {
  /** Database file (its directory is created), or `:memory:`. */
  readonly path: string;
  /** How long a write waits for another connection's lock. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

interface ItemRow {
  namespace: string;
  key: string;
  value: string;
  created_at: string;
  updated_at: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS store_items (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (namespace, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS store_items_updated ON store_items (updated_at DESC);
`;

function toItem(row: ItemRow): Item {
  return {
    namespace: decodeNamespace(row.namespace),
    key: row.key,
    value: JSON.parse(row.value) as Record<string, unknown>,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function checkKey(key: unknown): string {
  if (typeof key !== "string")
    throw new RuntimeError("INVALID_ARGUMENT", `A store key must be a string, got ${typeof key}`);
  return key;
}

function serializeValue(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RuntimeError("INVALID_ARGUMENT", "A store value must be a JSON object");
  }
  return JSON.stringify(value);
}

/**
 * LangGraph `BaseStore` on SQLite (better-sqlite3, an optional peer dependency).
 *
 * @example
 * ```ts
 * const store = new SqliteStore({ path: ".deerflow-data/store.sqlite" });
 * await store.put(["users", "alice"], "prefs", { theme: "dark" });
 * const items = await store.search(["users"], { filter: { theme: "dark" } });
 * store.close();
 * ```
 */
export class SqliteStore extends BaseStore {
  readonly #db: Database.Database;
  readonly #get: Database.Statement<[string, string], ItemRow>;
  readonly #upsert: Database.Statement<[string, string, string, string, string]>;
  readonly #delete: Database.Statement<[string, string]>;
  readonly #searchAll: Database.Statement<[], ItemRow>;
  readonly #searchPrefix: Database.Statement<[string, string, string], ItemRow>;
  readonly #namespaces: Database.Statement<[], { namespace: string }>;
  readonly #namespacesUnder: Database.Statement<[string, string, string], { namespace: string }>;

  /**
   * Opens (and creates) the database.
   *
   * @throws RuntimeError `CONFIG_INVALID` for a bad path; `STORE_UNAVAILABLE` when the file cannot be opened.
   */
  constructor(options: SqliteStoreOptions) {
    super();
    const given = options.path;
    if (typeof given !== "string" || given === "" || given.includes("\u0000")) {
      throw new RuntimeError(
        "CONFIG_INVALID",
        `SqliteStore path must be a file path or ":memory:", got ${JSON.stringify(given)}`,
      );
    }
    const path = given === ":memory:" ? given : resolve(given);
    try {
      if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
      this.#db = new Database(path);
      this.#db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      this.#db.pragma("journal_mode = WAL");
      this.#db.pragma("synchronous = FULL");
      this.#db.exec(SCHEMA);
    } catch (cause) {
      throw new RuntimeError("STORE_UNAVAILABLE", `Cannot open store file ${path}: ${(cause as Error).message}`, {
        cause,
      });
    }
    const cols = "namespace, key, value, created_at, updated_at";
    const order = "ORDER BY updated_at DESC, namespace, key";
    this.#get = this.#db.prepare(`SELECT ${cols} FROM store_items WHERE namespace = ? AND key = ?`);
    this.#upsert = this.#db.prepare(
      `INSERT INTO store_items (namespace, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    );
    this.#delete = this.#db.prepare("DELETE FROM store_items WHERE namespace = ? AND key = ?");
    this.#searchAll = this.#db.prepare(`SELECT ${cols} FROM store_items ${order}`);
    this.#searchPrefix = this.#db.prepare(
      `SELECT ${cols} FROM store_items WHERE namespace = ? OR (namespace >= ? AND namespace < ?) ${order}`,
    );
    this.#namespaces = this.#db.prepare("SELECT DISTINCT namespace FROM store_items ORDER BY namespace");
    this.#namespacesUnder = this.#db.prepare(
      "SELECT DISTINCT namespace FROM store_items WHERE namespace = ? OR (namespace >= ? AND namespace < ?) ORDER BY namespace",
    );
  }

  /**
   * Runs the operations: reads first (they see the state before this batch's writes), then every write in one
   * transaction (the last write to a namespace and key wins).
   *
   * @throws InvalidNamespaceError for a malformed namespace; RuntimeError `INVALID_ARGUMENT` for a malformed key,
   *   value, filter or page; nothing is written when any operation is malformed.
   */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const writes = new Map<string, { ns: string; key: string; value: string | null }>();
    const reads: Array<() => unknown> = [];
    for (const op of operations) {
      if ("namespacePrefix" in op) reads.push(this.#searchOperation(op));
      else if (!("namespace" in op)) reads.push(this.#listOperation(op));
      else if ("value" in op) {
        const put = op as PutOperation;
        const ns = encodeNamespace(put.namespace, put.value === null);
        const key = checkKey(put.key);
        writes.set(JSON.stringify([ns, key]), {
          ns,
          key,
          value: put.value === null ? null : serializeValue(put.value),
        });
        reads.push(() => undefined);
      } else {
        const get = op as GetOperation;
        const ns = encodeNamespace(get.namespace, true);
        const key = checkKey(get.key);
        reads.push(() => {
          const row = this.#get.get(ns, key);
          return row === undefined ? null : toItem(row);
        });
      }
    }
    const results = reads.map((read) => read());
    if (writes.size > 0) this.#write([...writes.values()]);
    return results as OperationResults<Op>;
  }

  /** Closes the database. Idempotent. */
  close(): void {
    if (this.#db.open) this.#db.close();
  }

  /** LangGraph's shutdown hook: closes the database. */
  override stop(): void {
    this.close();
  }

  #write(writes: ReadonlyArray<{ ns: string; key: string; value: string | null }>): void {
    // One time for the batch: its writes happen together (ties are ordered by namespace and key).
    const now = new Date().toISOString();
    this.#db
      .transaction(() => {
        for (const w of writes) {
          if (w.value === null) this.#delete.run(w.ns, w.key);
          else this.#upsert.run(w.ns, w.key, w.value, now, now);
        }
      })
      .immediate();
  }

  #searchOperation(op: SearchOperation): () => Item[] {
    const prefix = encodeNamespace(op.namespacePrefix, true);
    const collector = new PageCollector(op.filter, pageOf(op.limit, op.offset, 10));
    return () => {
      if (collector.full) return collector.items;
      const range = prefixRange(prefix);
      // Synchronous to the end: no other batch runs on the connection while the statement is open.
      const rows =
        prefix === "" ? this.#searchAll.iterate() : this.#searchPrefix.iterate(range.exact, range.from, range.to);
      for (const row of rows) {
        if (collector.offer(toItem(row))) {
          rows.return?.();
          break;
        }
      }
      return collector.items;
    };
  }

  #listOperation(op: ListNamespacesOperation): () => string[][] {
    const query = checkNamespaceQuery(op);
    return () => {
      const fixed = query.fixedPrefix;
      const range = fixed === undefined ? undefined : prefixRange(fixed.join("."));
      const rows =
        range === undefined ? this.#namespaces.all() : this.#namespacesUnder.all(range.exact, range.from, range.to);
      return namespacePage(
        rows.map((r) => decodeNamespace(r.namespace)),
        query,
      );
    };
  }
}
