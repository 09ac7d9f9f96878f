/**
 * Accounts through the real server over a socket: the first admin, login with
 * cookies, CSRF on the LangGraph routes, the auth endpoints' origin check,
 * per-user API keys with the official SDK, the session secret on disk, and
 * `auth.enabled: false` / `DEER_FLOW_AUTH_DISABLED` keeping the single-user mode.
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { tempDirs } from "../support/temp-dir.js";
import { embeddedEnv, startServer, type TestServer } from "../support/server-harness.js";

const ADMIN = { email: "admin@example.com", password: "admin-pass-42" };
const AUTH_CONFIG = `
storage:
  data_dir: ./data
auth:
  enabled: true
  allowed_origins: ["http://console.example.com"]
`;

const temp = tempDirs();
let running: TestServer[] = [];

afterEach(async () => {
  await Promise.all(running.map((s) => s.server.close()));
  running = [];
  await temp.cleanup();
});

async function start(yaml: string, env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startServer(await temp.make(), yaml, { env: embeddedEnv(env), consoleDir: false });
  running.push(server);
  return server;
}

/** The cookies a response sets, as a `Cookie` header value and by name. */
function cookiesOf(res: Response): { header: string; byName: Map<string, string> } {
  const byName = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = (pair ?? "").indexOf("=");
    byName.set((pair ?? "").slice(0, eq), (pair ?? "").slice(eq + 1));
  }
  return { header: [...byName].map(([k, v]) => `${k}=${v}`).join("; "), byName };
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

describe("accounts on (auth.enabled)", () => {
  it("initializes once under a race, signs in by cookie and enforces CSRF on the API", async () => {
    const { url } = await start(AUTH_CONFIG);
    expect(await (await fetch(`${url}/api/info`)).json()).toMatchObject({ authRequired: true, accounts: true });
    expect(await (await fetch(`${url}/api/v1/auth/setup-status`)).json()).toMatchObject({ needs_setup: true });
    const [a, b] = await Promise.all([
      post(`${url}/api/v1/auth/initialize`, ADMIN),
      post(`${url}/api/v1/auth/initialize`, { email: "other@example.com", password: "other-pass-42" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);

    const login = await fetch(`${url}/api/v1/auth/login/local`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }).toString(),
    });
    // The race may have been won by either account: log in as whichever exists.
    const jar =
      login.status === 200
        ? cookiesOf(login)
        : cookiesOf(
            await fetch(`${url}/api/v1/auth/login/local`, {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body: new URLSearchParams({ username: "other@example.com", password: "other-pass-42" }).toString(),
            }),
          );
    const me = await fetch(`${url}/api/v1/auth/me`, { headers: { cookie: jar.header } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ system_role: "admin" });

    const noToken = await post(`${url}/api/threads`, {}, { cookie: jar.header });
    expect(noToken.status).toBe(403);
    expect(await noToken.json()).toEqual({ detail: "CSRF token missing. Include X-CSRF-Token header." });
    const withToken = await post(
      `${url}/api/threads`,
      {},
      {
        cookie: jar.header,
        "x-csrf-token": jar.byName.get("csrf_token") ?? "",
      },
    );
    expect(withToken.status).toBe(200);

    const anonymous = await fetch(`${url}/api/threads/search`, { method: "POST" });
    expect(anonymous.status).toBe(401);
  });

  it("refuses a login posted from a foreign origin and takes a configured one", async () => {
    const { url } = await start(AUTH_CONFIG);
    await post(`${url}/api/v1/auth/initialize`, ADMIN);
    const creds = { username: ADMIN.email, password: ADMIN.password };
    const evil = await post(`${url}/api/v1/auth/login/local`, creds, { origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toEqual({ detail: "Cross-site auth request denied." });
    expect((await post(`${url}/api/v1/auth/login/local`, creds, { origin: "http://console.example.com" })).status).toBe(
      200,
    );
    expect((await post(`${url}/api/v1/auth/login/local`, creds, { origin: url })).status).toBe(200);
  });

  it("serves the official SDK with a per-user API key and stops after revocation", async () => {
    const { url } = await start(AUTH_CONFIG);
    const jar = cookiesOf(await post(`${url}/api/v1/auth/initialize`, ADMIN));
    const csrf = { cookie: jar.header, "x-csrf-token": jar.byName.get("csrf_token") ?? "" };
    const created = await post(`${url}/api/v1/auth/api-keys`, { name: "sdk" }, csrf);
    expect(created.status).toBe(201);
    const { id, key } = (await created.json()) as { id: string; key: string };
    const client = new Client({ apiUrl: `${url}/api`, apiKey: key });
    const thread = await client.threads.create();
    expect((await client.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
    const revoked = await fetch(`${url}/api/v1/auth/api-keys/${id}`, { method: "DELETE", headers: csrf });
    expect(revoked.status).toBe(204);
    const after = await fetch(`${url}/api/threads/${thread.thread_id}`, { headers: { "x-api-key": key } });
    expect(after.status).toBe(401);
  });

  it("keeps accounts in the SQLite run store's file and a generated secret at data/.jwt_secret (0600)", async () => {
    const { server, logs } = await start(AUTH_CONFIG);
    // The embedded run store is a SQLite file: the accounts live in it too.
    expect(logs.messages()).toContain("accounts on: SqliteAccountStore, session secret from the data folder");
    const file = path.join(server.loaded.config.storage.dataDir, ".jwt_secret");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe("CORS with accounts", () => {
  it("allows credentials for listed origins only, never with a wildcard", async () => {
    const preflight = (url: string) =>
      fetch(`${url}/api/v1/auth/me`, {
        method: "OPTIONS",
        headers: { origin: "http://console.example.com", "access-control-request-method": "GET" },
      });
    const listed = await start(`${AUTH_CONFIG}server:\n  cors_origins: ["http://console.example.com"]\n`);
    const ok = await preflight(listed.url);
    expect(ok.headers.get("access-control-allow-origin")).toBe("http://console.example.com");
    expect(ok.headers.get("access-control-allow-credentials")).toBe("true");
    const wildcard = await start(`${AUTH_CONFIG}server:\n  cors_origins: ["*"]\n`);
    expect((await preflight(wildcard.url)).headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("accounts off", () => {
  it.each([
    ["auth.enabled: false", "storage:\n  data_dir: ./data\n", {}],
    ["DEER_FLOW_AUTH_DISABLED=1", AUTH_CONFIG, { DEER_FLOW_AUTH_DISABLED: "1" }],
  ])("keeps the single-user mode with %s", async (_l, yaml, env) => {
    const { url } = await start(yaml, env);
    expect((await post(`${url}/api/threads`, {})).status).toBe(200);
    expect(await (await fetch(`${url}/api/info`)).json()).toMatchObject({ authRequired: false, accounts: false });
    expect((await fetch(`${url}/api/v1/auth/setup-status`)).status).toBe(404);
  });
});
