/**
 * Two server instances on one PostgreSQL database (and Redis) share accounts:
 * a session started on A works on B, logging out or changing the password on
 * A revokes on B, and the login lockout counts failures on both. Both get the
 * same AUTH_JWT_SECRET, as instances on different hosts must.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDirs } from "../support/temp-dir.js";
import { embeddedEnv, startServer, type TestServer } from "../support/server-harness.js";
import { deleteRedisKeys, dropSchemas, requirePostgres, requireRedis, uniqueName } from "../support/services.js";

const ADMIN = { email: "admin@example.com", password: "admin-pass-42" };
const CONFIG = "storage:\n  data_dir: ./data\nskills:\n  enabled: false\nauth:\n  enabled: true\n";

const temp = tempDirs();
const schema = uniqueName("acct_e2e");
const prefix = `${uniqueName("accte2e")}:`;
let databaseUrl: string | null = null;
let redisUrl: string | null = null;
let a: TestServer;
let b: TestServer;

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** `Cookie` header and CSRF token of a response's cookies. */
function session(res: Response): { cookie: string; "x-csrf-token": string } {
  const pairs = res.headers.getSetCookie().map((line) => line.split(";")[0] ?? "");
  const csrf = pairs.find((p) => p.startsWith("csrf_token="))?.slice("csrf_token=".length) ?? "";
  return { cookie: pairs.join("; "), "x-csrf-token": csrf };
}

async function login(server: TestServer, password = ADMIN.password): Promise<Response> {
  return post(`${server.url}/api/v1/auth/login/local`, { username: ADMIN.email, password });
}

async function me(server: TestServer, headers: { cookie: string }): Promise<number> {
  return (await fetch(`${server.url}/api/v1/auth/me`, { headers: { cookie: headers.cookie } })).status;
}

beforeAll(async () => {
  databaseUrl = await requirePostgres();
  redisUrl = await requireRedis();
  if (databaseUrl === null || redisUrl === null) return;
  const env = embeddedEnv({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    DEERFLOW_POSTGRES_SCHEMA: schema,
    DEERFLOW_REDIS_KEY_PREFIX: prefix,
    AUTH_JWT_SECRET: randomBytes(32).toString("hex"),
  });
  // One after the other: the first runs the migrations.
  a = await startServer(await temp.make("deerflow-acct-a-"), CONFIG, { env, consoleDir: false });
  b = await startServer(await temp.make("deerflow-acct-b-"), CONFIG, { env, consoleDir: false });
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.server.close(), b?.server.close()]);
  if (databaseUrl !== null) await dropSchemas(databaseUrl, [schema]);
  if (redisUrl !== null) await deleteRedisKeys(redisUrl, prefix);
  await temp.cleanup();
});

describe("accounts on two instances sharing PostgreSQL", () => {
  it("shares the first admin, sessions, logout, password change and the lockout", async (ctx) => {
    if (databaseUrl === null || redisUrl === null) ctx.skip();
    for (const server of [a, b])
      expect(server.logs.messages()).toContain(
        "accounts on: PostgresAccountStore, session secret from AUTH_JWT_SECRET",
      );
    expect((await post(`${a.url}/api/v1/auth/initialize`, ADMIN)).status).toBe(201);
    expect((await post(`${b.url}/api/v1/auth/initialize`, ADMIN)).status).toBe(409);

    // A session from A works on B, also for a write with its CSRF token.
    const first = session(await login(a));
    expect(await me(b, first)).toBe(200);
    expect((await post(`${b.url}/api/threads`, {}, first)).status).toBe(200);

    // Logout on A ends it on B.
    await post(`${a.url}/api/v1/auth/logout`, {}, first);
    expect(await me(b, first)).toBe(401);

    // A password change on A signs every other session out, on B too; the caller keeps a new one.
    const other = session(await login(b));
    const mine = session(await login(a));
    const changed = await post(
      `${a.url}/api/v1/auth/change-password`,
      { current_password: ADMIN.password, new_password: "another-pass-43" },
      mine,
    );
    expect(changed.status).toBe(200);
    expect(await me(b, other)).toBe(401);
    expect(await me(b, session(changed))).toBe(200);

    // Failures on A and B add up: the address is locked on both.
    for (let i = 0; i < 5; i += 1) expect((await login(i % 2 === 0 ? a : b, "wrong-pass-1")).status).toBe(401);
    expect((await login(a, "another-pass-43")).status).toBe(429);
    expect((await login(b, "another-pass-43")).status).toBe(429);
  });
});
