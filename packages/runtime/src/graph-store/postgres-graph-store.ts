/**
 * `PostgresGraphStore`: LangGraph's `PostgresStore`
 * (`@langchain/langgraph-checkpoint-postgres/store`) for items, migrations and
 * TTLs, with search and namespace listing done on its `store` table by this
 * class, because the package's own (1.0.x) match a namespace prefix with
 * `LIKE 'prefix%'` on the `:`-joined path: `["user1"]` also matched
 * `["user10", ...]` (a cross-tenant read for stores scoped by a leading label),
 * an empty prefix was refused, `maxDepth` dropped deeper namespaces instead of
 * truncating them, and `*` wildcards were not understood. Here a prefix matches
 * whole labels, filters have `InMemoryStore`'s meaning (scalar equalities are
 * pushed into SQL as `jsonb @>` to narrow the scan, then every condition is
 * checked on the row), and a batch validates every operation before running any.
 * `PostgresStore` refuses labels holding `%`, `_` or `\` (its `LIKE`
 * metacharacters); this class stores every label escaped (`~` + two hex digits
 * for those and for `~` itself) and unescapes what it reads, so any label the
 * other stores take round-trips here too.
 */
import {
  BaseStore,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import pg from "pg";
import { RuntimeError } from "../errors.js";
import { encodeNamespace } from "./namespace-path.js";
import { checkNamespaceQuery, namespacePage, pageOf, PageCollector } from "./result-pages.js";

/** Options of {@link PostgresGraphStore}. */
export interface PostgresGraphStoreOptions {
  readonly connectionString: string;
  /** Schema of the `store` table (created by {@link PostgresGraphStore.setup}). Default `public`. */
  readonly schema?: string;
}

const SCHEMA_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** Rows read per round trip while a filtered search fills its page. */
const CHUNK_ROWS = 500;
/** What a label is stored escaped for: `PostgresStore`'s refused `LIKE` metacharacters, and the escape itself. */
const ESCAPED = /[~%_\\]/g;

/** A label as stored: `~` + two hex digits for each of `~ % _ \`. */
function storedLabel(label: string): string {
  return label.replace(ESCAPED, (c) => `~${c.charCodeAt(0).toString(16)}`);
}

/** A stored label as written by the client. */
function clientLabel(stored: string): string {
  return stored.replace(/~([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const storedPath = (namespace: readonly string[]): string => namespace.map(storedLabel).join(":");
const clientNamespace = (path: string): string[] => path.split(":").map(clientLabel);

interface ItemRow {
  namespace_path: string;
  key: string;
  value: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function toItem(row: ItemRow): Item {
  return {
    namespace: clientNamespace(row.namespace_path),
    key: row.key,
    value: row.value,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * Scalar equalities of a filter, as a `jsonb @>` document (rows are re-checked by the filter);
 * `complete` when they are the whole filter.
 */
function containment(filter: unknown): { json: string; complete: boolean } | undefined {
  if (typeof filter !== "object" || filter === null) return undefined;
  const doc: Record<string, unknown> = {};
  const entries = Object.entries(filter);
  for (const [field, expected] of entries) {
    if (typeof expected === "string" || typeof expected === "boolean" || typeof expected === "number") {
      doc[field] = expected;
    }
  }
  const pushed = Object.keys(doc).length;
  return pushed === 0 ? undefined : { json: JSON.stringify(doc), complete: pushed === entries.length };
}

/**
 * LangGraph `BaseStore` on PostgreSQL, shared by every instance.
 *
 * @example
 * ```ts
 * const store = new PostgresGraphStore({ connectionString: process.env.DATABASE_URL! });
 * await store.setup();
 * await store.put(["users", "alice"], "prefs", { theme: "dark" });
 * await store.stop();
 * ```
 */
export class PostgresGraphStore extends BaseStore {
  readonly #items: PostgresStore;
  readonly #pool: pg.Pool;
  readonly #table: string;

  /**
   * @throws RuntimeError `CONFIG_INVALID` for a malformed schema name or connection string.
   */
  constructor(options: PostgresGraphStoreOptions) {
    super();
    const schema = options.schema ?? "public";
    if (!SCHEMA_PATTERN.test(schema)) {
      throw new RuntimeError(
        "CONFIG_INVALID",
        `Store schema must be a plain SQL identifier, got ${JSON.stringify(schema)}`,
      );
    }
    if (typeof options.connectionString !== "string" || options.connectionString.trim() === "") {
      throw new RuntimeError("CONFIG_INVALID", "PostgresGraphStore needs a non-empty connectionString");
    }
    this.#items = new PostgresStore({ connectionOptions: options.connectionString, schema, ensureTables: false });
    this.#pool = new pg.Pool({ connectionString: options.connectionString, max: 4 });
    // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
    this.#pool.on("error", () => {});
    this.#table = `"${schema}".store`;
  }

  /**
   * Creates the schema and tables (LangGraph's migrations) under an advisory lock, so replicas starting
   * together do not race on `CREATE TABLE`. Idempotent.
   */
  async setup(): Promise<void> {
    const client = await this.#pool.connect();
    const lockKey = `deerflow:store-setup:${this.#table}`;
    try {
      await client.query("SELECT pg_advisory_lock(hashtext($1))", [lockKey]);
      try {
        await this.#items.setup();
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtext($1))", [lockKey]).catch(() => {});
      }
    } finally {
      client.release();
    }
  }

  /**
   * Runs the operations in order, after checking all of them.
   *
   * @throws InvalidNamespaceError for a malformed namespace; RuntimeError `INVALID_ARGUMENT` for a malformed
   *   filter, page or match.
   */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const steps = operations.map((op) => this.#plan(op));
    const results: unknown[] = [];
    for (const step of steps) results.push(await step());
    return results as OperationResults<Op>;
  }

  /** Closes both connection pools. Idempotent. */
  override async stop(): Promise<void> {
    await this.#items.stop();
    if (!this.#pool.ended) await this.#pool.end();
  }

  #plan(op: Operation): () => Promise<unknown> {
    if ("namespacePrefix" in op) return this.#search(op);
    if (!("namespace" in op)) return this.#list(op);
    const writing = "value" in op;
    const deleting = writing && (op as PutOperation).value === null;
    encodeNamespace(op.namespace, !writing || deleting);
    if (typeof op.key !== "string") throw new RuntimeError("INVALID_ARGUMENT", "A store key must be a string");
    // Nothing is ever stored under the empty namespace: reads find nothing, deletes have nothing to do.
    if (op.namespace.length === 0) return async () => (writing ? undefined : null);
    if (writing && !deleting) {
      const value = (op as PutOperation).value;
      if (typeof value !== "object" || Array.isArray(value)) {
        throw new RuntimeError("INVALID_ARGUMENT", "A store value must be a JSON object");
      }
    }
    const stored = { ...op, namespace: op.namespace.map(storedLabel) };
    return async () => {
      const [result] = await this.#items.batch([stored]);
      // A get's item carries the stored namespace; the client gets back the one it wrote.
      return result !== null && typeof result === "object" && "namespace" in result
        ? { ...(result as Item), namespace: [...op.namespace] }
        : result;
    };
  }

  #search(op: SearchOperation): () => Promise<Item[]> {
    encodeNamespace(op.namespacePrefix, true);
    const page = pageOf(op.limit, op.offset, 10);
    const collector = new PageCollector(op.filter, page);
    const path = storedPath(op.namespacePrefix);
    const contains = containment(op.filter);
    const where = ["(expires_at IS NULL OR expires_at > CURRENT_TIMESTAMP)"];
    const params: unknown[] = [];
    if (path !== "") {
      params.push(path, `${escapeLike(path)}:%`);
      where.push("(namespace_path = $1 OR namespace_path LIKE $2)");
    }
    if (contains !== undefined) {
      params.push(contains.json);
      where.push(`value @> $${params.length}::jsonb`);
    }
    const sql = `SELECT namespace_path, key, value, created_at, updated_at FROM ${this.#table}
      WHERE ${where.join(" AND ")} ORDER BY updated_at DESC, namespace_path, key
      LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
    // When SQL holds the whole filter, the first read is exactly the rows up to the page's end.
    const first = contains !== undefined && contains.complete ? page.offset + page.limit : CHUNK_ROWS;
    return async () => {
      let offset = 0;
      for (let chunk = first; !collector.full; chunk = CHUNK_ROWS) {
        const { rows } = await this.#pool.query<ItemRow>(sql, [...params, chunk, offset]);
        for (const row of rows) if (collector.offer(toItem(row))) break;
        if (rows.length < chunk) break;
        offset += rows.length;
      }
      return collector.items;
    };
  }

  #list(op: ListNamespacesOperation): () => Promise<string[][]> {
    const query = checkNamespaceQuery(op);
    const where = ["(expires_at IS NULL OR expires_at > CURRENT_TIMESTAMP)"];
    const params: unknown[] = [];
    if (query.fixedPrefix !== undefined) {
      const path = storedPath(query.fixedPrefix);
      params.push(path, `${escapeLike(path)}:%`);
      where.push("(namespace_path = $1 OR namespace_path LIKE $2)");
    }
    const sql = `SELECT DISTINCT namespace_path FROM ${this.#table} WHERE ${where.join(" AND ")}`;
    return async () => {
      const { rows } = await this.#pool.query<{ namespace_path: string }>(sql, params);
      return namespacePage(
        rows.map((r) => clientNamespace(r.namespace_path)),
        query,
      );
    };
  }
}
