/**
 * PostgreSQL for the integration tests: DATABASE_URL (default the local
 * `test` database). Unreachable: the tests are skipped with a loud message,
 * except under CI=true, where that is a failure.
 */
import pg from "pg";

const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";

/** @returns the URL of a reachable PostgreSQL, or null outside CI */
export async function requirePostgres(): Promise<string | null> {
  const url = process.env["DATABASE_URL"] ?? DEFAULT_DATABASE_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return url;
  } catch (err) {
    if (process.env["CI"] === "true")
      throw new Error(`PostgreSQL is required under CI=true: ${(err as Error).message}`);
    process.stderr.write(`\n!!! PostgreSQL unavailable (${(err as Error).message}): its tests are SKIPPED.\n`);
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Drops a schema and everything in it. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
