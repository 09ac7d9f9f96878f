/**
 * Real services for integration tests (after packages/runtime/test/support/services.ts).
 * Redis and PostgreSQL are read from REDIS_URL / DATABASE_URL (defaults: the local
 * services). A missing service skips its tests with a loud message, except under
 * CI=true, where it is a failure. Each test gets its own Redis key prefix and
 * PostgreSQL schema and removes them afterwards.
 */
import { randomUUID } from "node:crypto";
import net from "node:net";
import { Redis } from "ioredis";
import pg from "pg";

const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";
const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";

function missing(service: string, why: string): null {
  if (process.env["CI"] === "true") throw new Error(`${service} is required under CI=true but unavailable: ${why}`);
  process.stderr.write(`\n!!! ${service} unavailable (${why}): its integration tests are SKIPPED.\n`);
  return null;
}

/** Sends PING over a raw socket; true on +PONG. */
export function pingRedis(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (d) => done(d.toString().startsWith("+PONG")));
  });
}

/** URL of a reachable Redis, or null (after a loud warning) outside CI. */
export async function requireRedis(): Promise<string | null> {
  const url = process.env["REDIS_URL"] ?? DEFAULT_REDIS_URL;
  const parsed = new URL(url);
  if (await pingRedis(parsed.hostname, Number(parsed.port || 6379))) return url;
  return missing("Redis", `nothing answers at ${url}`);
}

/** URL of a reachable PostgreSQL, or null (after a loud warning) outside CI. */
export async function requirePostgres(): Promise<string | null> {
  const url = process.env["DATABASE_URL"] ?? DEFAULT_DATABASE_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return url;
  } catch (err) {
    return missing("PostgreSQL", `${url}: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A unique lowercase name for a Redis key prefix or a PostgreSQL schema. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
}

/** Drops PostgreSQL schemas (with everything in them). */
export async function dropSchemas(databaseUrl: string, schemas: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Deletes every Redis key starting with `prefix`. */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
