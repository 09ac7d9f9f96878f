/**
 * PostgreSQL schemas for the store integration tests: each kit test on a
 * fresh schema dropped after it, and a file's own tests on schemas dropped
 * after the file. Shared by the run, account, assistant and graph store tests.
 */
import pg from "pg";
import { afterAll } from "vitest";
import { uniqueName } from "./services.js";

/** Drops a test schema with its tables, on a connection of its own. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** A store the kits can set up. */
interface SetupStore {
  setup(): Promise<void>;
}

/**
 * `makeStore` and `makeInstances` of a store conformance kit: each test on a
 * fresh schema named `<prefix>_<random>`, set up and dropped after the test.
 *
 * @param open - Opens the single store of a test on `schema`.
 * @param openInstance - Opens one of several instances sharing `schema`, each
 *   with its own pool (like separate server instances). Default `open`.
 */
export function freshSchemaStores<Store extends SetupStore>(
  databaseUrl: string,
  prefix: string,
  open: (schema: string) => Store,
  openInstance: (schema: string) => Store = open,
): {
  makeStore: () => Promise<{ store: Store; cleanup: () => Promise<void> }>;
  makeInstances: (count: number) => Promise<{ stores: Store[]; cleanup: () => Promise<void> }>;
} {
  return {
    async makeStore() {
      const schema = uniqueName(prefix);
      const store = open(schema);
      await store.setup();
      return { store, cleanup: () => dropSchema(databaseUrl, schema) };
    },
    async makeInstances(count) {
      const schema = uniqueName(prefix);
      const stores = Array.from({ length: count }, () => openInstance(schema));
      await Promise.all(stores.map((s) => s.setup()));
      return { stores, cleanup: () => dropSchema(databaseUrl, schema) };
    },
  };
}

/** What {@link useSchemaAdmin} gives a `describe`. */
export interface SchemaAdmin {
  /** A small pool for checking tables directly (it connects on first use). */
  readonly admin: pg.Pool;
  /** A new schema name `<prefix>_<random>`, dropped after the enclosing `describe`. */
  freshSchema(): string;
}

/** Registers an `afterAll` that drops the schemas handed out and ends the admin pool. */
export function useSchemaAdmin(databaseUrl: string, prefix: string): SchemaAdmin {
  const schemas: string[] = [];
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  afterAll(async () => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
  return {
    admin,
    freshSchema() {
      const schema = uniqueName(prefix);
      schemas.push(schema);
      return schema;
    },
  };
}
