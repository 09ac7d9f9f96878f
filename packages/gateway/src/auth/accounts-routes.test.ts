import { MemoryAccountStore } from "@deerflow/runtime";
import bcrypt from "bcryptjs";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { createGateway } from "../gateway.js";
import type { AccountsOptions } from "./accounts-options.js";
import { PASSWORD_HASH_V2, PasswordHasher } from "./password-hasher.js";

const SECRET = "0123456789abcdef0123456789abcdef";
const ADMIN = { email: "admin@example.com", password: "admin-pass-42" };
const ALICE = { email: "alice@example.com", password: "alice-pass-42" };

/** A browser's cookie jar, enough for these tests. */
class Jar {
  readonly cookies = new Map<string, string>();
  take(res: LightMyRequestResponse): this {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number }[]) {
      if (c.value === "" || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return this;
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  /** Headers of a state-changing request from the console. */
  write(): Record<string, string> {
    return { cookie: this.header(), "x-csrf-token": this.cookies.get("csrf_token") ?? "" };
  }
}

let clock = new Date("2026-01-01T00:00:00Z");
let app: FastifyInstance | undefined;
let store: MemoryAccountStore;

async function start(extra: Partial<AccountsOptions> = {}, apiKeys?: string[]): Promise<FastifyInstance> {
  clock = new Date("2026-01-01T00:00:00Z");
  store = new MemoryAccountStore({ now: () => clock });
  app = await createGateway({
    accounts: {
      store,
      secret: SECRET,
      passwordHasher: new PasswordHasher({ cost: 4 }),
      now: () => clock,
      ...extra,
    },
    ...(apiKeys === undefined ? {} : { auth: { apiKeys } }),
    routes: [
      async (api) => {
        api.post("/echo", async (r) => ({ user: r.principal.userId, role: r.principal.role }));
      },
    ],
  });
  return app;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function initialize(a: FastifyInstance, creds = ADMIN): Promise<Jar> {
  const res = await a.inject({ method: "POST", url: "/api/v1/auth/initialize", payload: creds });
  expect(res.statusCode).toBe(201);
  return new Jar().take(res);
}

async function login(
  a: FastifyInstance,
  creds: { email: string; password: string },
  extra: { remoteAddress?: string; form?: boolean; rememberMe?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const fields = { username: creds.email, password: creds.password, remember_me: String(extra.rememberMe ?? true) };
  return a.inject({
    method: "POST",
    url: "/api/v1/auth/login/local",
    ...(extra.remoteAddress === undefined ? {} : { remoteAddress: extra.remoteAddress }),
    ...(extra.form === false
      ? { payload: { ...fields, remember_me: extra.rememberMe ?? true } }
      : {
          payload: new URLSearchParams(fields).toString(),
          headers: { "content-type": "application/x-www-form-urlencoded" },
        }),
  });
}

async function createUser(a: FastifyInstance, admin: Jar, creds = ALICE, role = "user"): Promise<string> {
  const res = await a.inject({
    method: "POST",
    url: "/api/v1/auth/users",
    headers: admin.write(),
    payload: { ...creds, system_role: role },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

describe("first admin and setup status", () => {
  it("reports setup needed, creates the admin once and signs them in", async () => {
    const a = await start();
    expect((await a.inject({ url: "/api/v1/auth/setup-status" })).json()).toEqual({
      needs_setup: true,
      registration_enabled: true,
    });
    const res = await a.inject({ method: "POST", url: "/api/v1/auth/initialize", payload: ADMIN });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ email: ADMIN.email, system_role: "admin", oauth_provider: null });
    const names = (res.cookies as { name: string }[]).map((c) => c.name).sort();
    expect(names).toEqual(["access_token", "csrf_token", "deerflow_session_persistent"]);
    const session = (res.cookies as { name: string; httpOnly?: boolean; sameSite?: string; path?: string }[]).find(
      (c) => c.name === "access_token",
    );
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    const again = await a.inject({ method: "POST", url: "/api/v1/auth/initialize", payload: ALICE });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      detail: { code: "system_already_initialized", message: "System already initialized" },
    });
    expect((await a.inject({ url: "/api/v1/auth/setup-status" })).json()).toMatchObject({ needs_setup: false });
  });

  it("lets exactly one of two concurrent initializations win", async () => {
    const a = await start();
    const results = await Promise.all([
      a.inject({ method: "POST", url: "/api/v1/auth/initialize", payload: ADMIN }),
      a.inject({ method: "POST", url: "/api/v1/auth/initialize", payload: ALICE }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await store.countUsers()).toBe(1);
  });

  it("refuses a weak first password with a 422 naming the field", async () => {
    const a = await start();
    const short = await a.inject({
      method: "POST",
      url: "/api/v1/auth/initialize",
      payload: { ...ADMIN, password: "short" },
    });
    expect(short.statusCode).toBe(422);
    const common = await a.inject({
      method: "POST",
      url: "/api/v1/auth/initialize",
      payload: { ...ADMIN, password: "Password123" },
    });
    expect(common.statusCode).toBe(422);
    expect(common.json().detail[0]).toMatchObject({ loc: ["body", "password"] });
    expect(await store.countUsers()).toBe(0);
  });
});

describe("login, me and logout", () => {
  it("signs in with the form or JSON, answers me, then logs out for good", async () => {
    const a = await start();
    await initialize(a);
    const res = await login(a, ADMIN);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ expires_in: 7 * 24 * 3600, needs_setup: false });
    const jar = new Jar().take(res);
    const me = await a.inject({ url: "/api/v1/auth/me", headers: { cookie: jar.header() } });
    expect(me.json()).toMatchObject({ email: ADMIN.email, system_role: "admin", needs_setup: false });
    expect((await login(a, ADMIN, { form: false })).statusCode).toBe(200);
    const stolen = jar.header();
    const out = await a.inject({ method: "POST", url: "/api/v1/auth/logout", headers: { cookie: stolen } });
    expect(out.json()).toEqual({ message: "Successfully logged out" });
    jar.take(out);
    expect(jar.cookies.size).toBe(0);
    // The old cookie is dead server-side, not only in the browser.
    const after = await a.inject({ url: "/api/v1/auth/me", headers: { cookie: stolen } });
    expect(after.statusCode).toBe(401);
  });

  it("ends the session a browser had when it signs in again", async () => {
    const a = await start();
    const jar = await initialize(a);
    const before = jar.header();
    const res = await a.inject({
      method: "POST",
      url: "/api/v1/auth/login/local",
      headers: { cookie: before },
      payload: { username: ADMIN.email, password: ADMIN.password },
    });
    expect(res.statusCode).toBe(200);
    expect((await a.inject({ url: "/api/v1/auth/me", headers: { cookie: before } })).statusCode).toBe(401);
    expect((await a.inject({ url: "/api/v1/auth/me", headers: { cookie: jar.take(res).header() } })).statusCode).toBe(
      200,
    );
  });

  it("answers a wrong password and an unknown email alike", async () => {
    const a = await start();
    await initialize(a);
    for (const creds of [
      { ...ADMIN, password: "wrong-pass-1" },
      { email: "nobody@example.com", password: "x" },
    ]) {
      const res = await login(a, creds);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: { code: "invalid_credentials", message: "Incorrect email or password" } });
    }
  });

  it("makes remember_me=false a browser-session cookie and true a persistent one on localhost", async () => {
    const a = await start();
    await initialize(a);
    const maxAge = (r: LightMyRequestResponse) =>
      (r.cookies as { name: string; maxAge?: number }[]).find((c) => c.name === "access_token")?.maxAge;
    expect(maxAge(await login(a, ADMIN, { rememberMe: false }))).toBeUndefined();
    expect(maxAge(await login(a, ADMIN))).toBe(7 * 24 * 3600);
    // A public host over plain HTTP gets no long-lived cookie (DeerFlow's rule).
    const remote = await a.inject({
      method: "POST",
      url: "/api/v1/auth/login/local",
      headers: { host: "deerflow.example.com" },
      payload: { username: ADMIN.email, password: ADMIN.password },
    });
    expect(maxAge(remote)).toBeUndefined();
  });

  it("answers 401 without credentials on API routes and unknown ones", async () => {
    const a = await start();
    for (const url of ["/api/echo", "/api/nope", "/api/v1/auth/me"]) {
      const res = await a.inject({ method: url === "/api/echo" ? "POST" : "GET", url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: { code: "not_authenticated", message: "Authentication required" } });
    }
  });

  it("lists the local provider", async () => {
    const a = await start({ oidcProviders: () => [{ id: "corp", display_name: "Corp SSO" }] });
    expect((await a.inject({ url: "/api/v1/auth/providers" })).json()).toEqual({
      local: true,
      oidc: [{ id: "corp", display_name: "Corp SSO" }],
    });
  });
});

describe("brute force", () => {
  it("locks an address after 5 failures (429), leaves other addresses alone, and lifts after 300 s", async () => {
    const a = await start();
    await initialize(a);
    const wrong = { ...ADMIN, password: "wrong-pass-1" };
    for (let i = 0; i < 5; i += 1) expect((await login(a, wrong, { remoteAddress: "10.0.0.1" })).statusCode).toBe(401);
    const locked = await login(a, ADMIN, { remoteAddress: "10.0.0.1" });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ detail: "Too many login attempts. Try again later." });
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
    expect((await login(a, ADMIN, { remoteAddress: "10.0.0.2" })).statusCode).toBe(200);
    clock = new Date(clock.getTime() + 301_000);
    expect((await login(a, ADMIN, { remoteAddress: "10.0.0.1" })).statusCode).toBe(200);
  });
});

describe("CSRF", () => {
  it("refuses a cookie-authenticated write without the header, with another token, and takes the right one", async () => {
    const a = await start();
    const jar = await initialize(a);
    const missing = await a.inject({ method: "POST", url: "/api/echo", headers: { cookie: jar.header() } });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toEqual({ detail: "CSRF token missing. Include X-CSRF-Token header." });
    const mismatch = await a.inject({
      method: "POST",
      url: "/api/echo",
      headers: { cookie: jar.header(), "x-csrf-token": "forged" },
    });
    expect(mismatch.json()).toEqual({ detail: "CSRF token mismatch." });
    const ok = await a.inject({ method: "POST", url: "/api/echo", headers: jar.write() });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ role: "admin" });
  });

  it("refuses auth posts from another origin, takes the own and configured ones and Origin-less clients", async () => {
    const a = await start({ allowedOrigins: ["http://console.example.com:5173", "*"] });
    await initialize(a);
    const post = (origin?: string) =>
      a.inject({
        method: "POST",
        url: "/api/v1/auth/login/local",
        headers: { host: "localhost:8001", ...(origin === undefined ? {} : { origin }) },
        payload: { username: ADMIN.email, password: ADMIN.password },
      });
    const evil = await post("https://evil.example");
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toEqual({ detail: "Cross-site auth request denied." });
    expect((await post("null")).statusCode).toBe(403);
    expect((await post("http://localhost:8001")).statusCode).toBe(200);
    expect((await post("http://console.example.com:5173")).statusCode).toBe(200);
    expect((await post()).statusCode).toBe(200);
    // "*" among the allowed origins vouches for nobody.
    expect((await post("http://other.example")).statusCode).toBe(403);
  });

  it("exempts API-key requests: a program sends no CSRF token", async () => {
    const a = await start();
    const jar = await initialize(a);
    const created = await a.inject({
      method: "POST",
      url: "/api/v1/auth/api-keys",
      headers: jar.write(),
      payload: { name: "ci" },
    });
    const { key } = created.json<{ key: string }>();
    const res = await a.inject({ method: "POST", url: "/api/echo", headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode).toBe(200);
  });

  it("sets a CSRF cookie on /me when the browser lost it", async () => {
    const a = await start();
    const jar = await initialize(a);
    jar.cookies.delete("csrf_token");
    const me = await a.inject({ url: "/api/v1/auth/me", headers: { cookie: jar.header() } });
    expect((me.cookies as { name: string }[]).map((c) => c.name)).toContain("csrf_token");
  });
});

describe("hostile cookies", () => {
  it("refuses a tampered and an expired session cookie with 401", async () => {
    const a = await start({ tokenExpiryDays: 1 });
    const jar = await initialize(a);
    const token = jar.cookies.get("access_token") as string;
    const tampered = `${token.slice(0, 5)}${token[5] === "A" ? "B" : "A"}${token.slice(6)}`;
    const bad = await a.inject({ url: "/api/v1/auth/me", headers: { cookie: `access_token=${tampered}` } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().detail.code).toBe("token_invalid");
    clock = new Date(clock.getTime() + 24 * 3600 * 1000 + 1000);
    const expired = await a.inject({ url: "/api/v1/auth/me", headers: { cookie: jar.header() } });
    expect(expired.statusCode).toBe(401);
  });

  it("lets a stale cookie still reach the login route", async () => {
    const a = await start();
    await initialize(a);
    const res = await a.inject({
      method: "POST",
      url: "/api/v1/auth/login/local",
      headers: { cookie: "access_token=garbage" },
      payload: { username: ADMIN.email, password: ADMIN.password },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe("password change", () => {
  it("revokes every other session and re-issues the caller's", async () => {
    const a = await start();
    const first = await initialize(a);
    const second = new Jar().take(await login(a, ADMIN));
    const res = await a.inject({
      method: "POST",
      url: "/api/v1/auth/change-password",
      headers: first.write(),
      payload: { current_password: ADMIN.password, new_password: "brand-new-pass-7" },
    });
    expect(res.json()).toEqual({ message: "Password changed successfully" });
    first.take(res);
    expect((await a.inject({ url: "/api/v1/auth/me", headers: { cookie: second.header() } })).statusCode).toBe(401);
    expect((await a.inject({ url: "/api/v1/auth/me", headers: { cookie: first.header() } })).statusCode).toBe(200);
    expect((await login(a, ADMIN)).statusCode).toBe(401);
    expect((await login(a, { ...ADMIN, password: "brand-new-pass-7" })).statusCode).toBe(200);
  });

  it("refuses a wrong current password", async () => {
    const a = await start();
    const jar = await initialize(a);
    const res = await a.inject({
      method: "POST",
      url: "/api/v1/auth/change-password",
      headers: jar.write(),
      payload: { current_password: "not-it-at-all", new_password: "brand-new-pass-7" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toEqual({ code: "invalid_credentials", message: "Current password is incorrect" });
  });
});

describe("legacy hashes", () => {
  it("accepts a $dfv1$ hash and rehashes it as $dfv2$ on login", async () => {
    const a = await start();
    await initialize(a);
    const bare = await bcrypt.hash("legacy-pass-9", 4);
    const user = await store.createUser({
      email: "old@example.com",
      passwordHash: `$dfv1$${bare}`,
      systemRole: "user",
    });
    expect((await login(a, { email: "old@example.com", password: "legacy-pass-9" })).statusCode).toBe(200);
    expect((await store.getUser(user.userId))?.passwordHash?.startsWith(PASSWORD_HASH_V2)).toBe(true);
    expect((await login(a, { email: "old@example.com", password: "legacy-pass-9" })).statusCode).toBe(200);
  });
});

describe("registration", () => {
  it("refuses registration before the first admin exists (it would block initialize for good)", async () => {
    const a = await start();
    const res = await a.inject({ method: "POST", url: "/api/v1/auth/register", payload: ALICE });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail.code).toBe("system_not_initialized");
    expect(await store.countUsers()).toBe(0);
  });

  it("registers a user when open and refuses when closed", async () => {
    const a = await start();
    await initialize(a);
    const res = await a.inject({ method: "POST", url: "/api/v1/auth/register", payload: ALICE });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ email: ALICE.email, system_role: "user" });
    const dup = await a.inject({ method: "POST", url: "/api/v1/auth/register", payload: ALICE });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().detail.code).toBe("email_already_exists");
    await app?.close();
    const closed = await start({ allowRegistration: false });
    await initialize(closed);
    const refused = await closed.inject({ method: "POST", url: "/api/v1/auth/register", payload: ALICE });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toEqual({
      code: "registration_disabled",
      message: "Self-registration is disabled on this deployment",
    });
  });
});

describe("per-user API keys", () => {
  it("creates a key shown once, lists it without the secret, authenticates, and stops after revocation", async () => {
    const a = await start();
    const admin = await initialize(a);
    await createUser(a, admin);
    const alice = new Jar().take(await login(a, ALICE));
    const created = await a.inject({
      method: "POST",
      url: "/api/v1/auth/api-keys",
      headers: alice.write(),
      payload: { name: "laptop" },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json<{ id: string; key: string; prefix: string }>();
    expect(body.key).toMatch(/^dfk_/);
    expect(body.key.startsWith(body.prefix)).toBe(true);
    const list = await a.inject({ url: "/api/v1/auth/api-keys", headers: { cookie: alice.header() } });
    expect(JSON.stringify(list.json())).not.toContain(body.key);
    expect(list.json().api_keys).toHaveLength(1);
    const echo = await a.inject({ method: "POST", url: "/api/echo", headers: { "x-api-key": body.key } });
    expect(echo.json()).toMatchObject({ role: "user" });
    // The admin cannot revoke Alice's key through their own route: it is not theirs.
    const foreign = await a.inject({
      method: "DELETE",
      url: `/api/v1/auth/api-keys/${body.id}`,
      headers: admin.write(),
    });
    expect(foreign.statusCode).toBe(404);
    const revoked = await a.inject({
      method: "DELETE",
      url: `/api/v1/auth/api-keys/${body.id}`,
      headers: alice.write(),
    });
    expect(revoked.statusCode).toBe(204);
    const after = await a.inject({ method: "POST", url: "/api/echo", headers: { "x-api-key": body.key } });
    expect(after.statusCode).toBe(401);
  });

  it("refuses an expired key and keeps configured keys working beside accounts", async () => {
    const a = await start({}, ["operator-key"]);
    const admin = await initialize(a);
    const created = await a.inject({
      method: "POST",
      url: "/api/v1/auth/api-keys",
      headers: admin.write(),
      payload: { name: "short", expires_in_days: 1 },
    });
    const { key } = created.json<{ key: string }>();
    expect((await a.inject({ method: "POST", url: "/api/echo", headers: { "x-api-key": key } })).statusCode).toBe(200);
    clock = new Date(clock.getTime() + 2 * 24 * 3600 * 1000);
    expect((await a.inject({ method: "POST", url: "/api/echo", headers: { "x-api-key": key } })).statusCode).toBe(401);
    const op = await a.inject({ method: "POST", url: "/api/echo", headers: { "x-api-key": "operator-key" } });
    expect(op.json()).toMatchObject({ user: "default" });
    const forged = await a.inject({
      method: "POST",
      url: "/api/echo",
      headers: { "x-api-key": `dfk_${"A".repeat(43)}` },
    });
    expect(forged.statusCode).toBe(401);
  });
});

describe("API key use", () => {
  it("records last_used_at at most once a minute", async () => {
    const a = await start();
    const admin = await initialize(a);
    const created = await a.inject({
      method: "POST",
      url: "/api/v1/auth/api-keys",
      headers: admin.write(),
      payload: { name: "k" },
    });
    const { key } = created.json<{ key: string }>();
    const lastUsed = async (): Promise<string | null> => {
      await new Promise((r) => setImmediate(r));
      const list = await a.inject({ url: "/api/v1/auth/api-keys", headers: { cookie: admin.header() } });
      return list.json<{ api_keys: { last_used_at: string | null }[] }>().api_keys[0]?.last_used_at ?? null;
    };
    expect(await lastUsed()).toBeNull();
    const use = () => a.inject({ method: "POST", url: "/api/echo", headers: { authorization: `Bearer ${key}` } });
    await use();
    const first = await lastUsed();
    expect(first).toBe(clock.toISOString());
    clock = new Date(clock.getTime() + 30_000);
    await use();
    expect(await lastUsed()).toBe(first);
    clock = new Date(clock.getTime() + 31_000);
    await use();
    expect(await lastUsed()).toBe(clock.toISOString());
  });
});

describe("hostile input", () => {
  it("refuses oversized credentials with 422 before hashing anything", async () => {
    const a = await start();
    await initialize(a);
    const huge = await a.inject({
      method: "POST",
      url: "/api/v1/auth/login/local",
      payload: { username: ADMIN.email, password: "x".repeat(5000) },
    });
    expect(huge.statusCode).toBe(422);
    const longName = await a.inject({
      method: "POST",
      url: "/api/v1/auth/login/local",
      payload: { username: `${"a".repeat(400)}@example.com`, password: "whatever-1" },
    });
    expect(longName.statusCode).toBe(422);
    const extra = await a.inject({
      method: "POST",
      url: "/api/v1/auth/initialize",
      payload: { ...ALICE, system_role: "admin" },
    });
    expect(extra.statusCode).toBe(422);
    const reg = await a.inject({
      method: "POST",
      url: "/api/v1/auth/register",
      payload: { ...ALICE, system_role: "admin" },
    });
    // A body cannot choose its role: unknown members are refused.
    expect(reg.statusCode).toBe(422);
  });
});

describe("user management", () => {
  it("lets an admin list, create, disable and delete users; a user gets 403", async () => {
    const a = await start();
    const admin = await initialize(a);
    const aliceId = await createUser(a, admin);
    const alice = new Jar().take(await login(a, ALICE));
    const created = await a.inject({
      method: "POST",
      url: "/api/v1/auth/api-keys",
      headers: alice.write(),
      payload: { name: "k" },
    });
    const { key } = created.json<{ key: string }>();
    const list = await a.inject({ url: "/api/v1/auth/users", headers: { cookie: admin.header() } });
    expect(list.json()).toMatchObject({ total: 2 });
    const denied = await a.inject({ url: "/api/v1/auth/users", headers: { cookie: alice.header() } });
    expect(denied.statusCode).toBe(403);
    const disabled = await a.inject({
      method: "PATCH",
      url: `/api/v1/auth/users/${aliceId}`,
      headers: admin.write(),
      payload: { disabled: true },
    });
    expect(disabled.json()).toMatchObject({ disabled: true });
    expect((await a.inject({ url: "/api/v1/auth/me", headers: { cookie: alice.header() } })).statusCode).toBe(401);
    expect((await a.inject({ method: "POST", url: "/api/echo", headers: { "x-api-key": key } })).statusCode).toBe(401);
    expect((await login(a, ALICE)).statusCode).toBe(403);
    const removed = await a.inject({ method: "DELETE", url: `/api/v1/auth/users/${aliceId}`, headers: admin.write() });
    expect(removed.statusCode).toBe(204);
    expect(await store.getUser(aliceId)).toBeUndefined();
  });

  it("refuses to delete oneself or remove the last admin", async () => {
    const a = await start();
    const admin = await initialize(a);
    const me = (await a.inject({ url: "/api/v1/auth/me", headers: { cookie: admin.header() } })).json<{ id: string }>();
    const self = await a.inject({ method: "DELETE", url: `/api/v1/auth/users/${me.id}`, headers: admin.write() });
    expect(self.statusCode).toBe(409);
    const demote = await a.inject({
      method: "PATCH",
      url: `/api/v1/auth/users/${me.id}`,
      headers: admin.write(),
      payload: { system_role: "user" },
    });
    expect(demote.statusCode).toBe(409);
  });
});

describe("documentation", () => {
  it("lists the auth routes with their body schemas in /openapi.json", async () => {
    const a = await start();
    const jar = await initialize(a);
    const res = await a.inject({ url: "/openapi.json", headers: { cookie: jar.header() } });
    const doc = res.json<{ paths: Record<string, { post?: { requestBody?: unknown } }> }>();
    expect(doc.paths["/api/v1/auth/login/local"]?.post?.requestBody).toBeDefined();
    // Routes open to signed-out callers say so; the others need credentials.
    const paths = doc.paths as Record<string, Record<string, { security?: unknown[]; responses?: object }>>;
    expect(paths["/api/v1/auth/setup-status"]?.["get"]?.security).toEqual([]);
    expect(paths["/api/v1/auth/setup-status"]?.["get"]?.responses).not.toHaveProperty("401");
    expect(paths["/api/v1/auth/api-keys"]?.["get"]?.security).toBeUndefined();
    expect(paths["/api/v1/auth/api-keys"]?.["get"]?.responses).toHaveProperty("401");
    for (const p of [
      "/api/v1/auth/login/local",
      "/api/v1/auth/api-keys",
      "/api/v1/auth/users/{id}",
      "/api/v1/auth/me",
    ]) {
      expect(doc.paths).toHaveProperty([p]);
    }
  });

  it("refuses a short secret", async () => {
    await expect(createGateway({ accounts: { store: new MemoryAccountStore(), secret: "short" } })).rejects.toThrow(
      /at least 32 bytes/,
    );
  });
});
