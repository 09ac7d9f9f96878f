/**
 * OIDC login end to end: the gateway on a real socket, a local OpenID provider,
 * and the browser's part done by hand with fetch (redirects followed one by one,
 * cookies carried in a small jar).
 */
import { MemoryAccountStore } from "@deerflow/runtime";
import type { FastifyInstance } from "fastify";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGateway } from "../../src/gateway.js";
import { createOidcLogin } from "../../src/auth/oidc/oidc-login.js";
import type { OidcProviderOptions, OidcSettings } from "../../src/auth/oidc/oidc-options.js";
import { startFakeOidcIssuer, type FakeOidcIssuer } from "../../src/testing/fake-oidc-issuer.js";

const SECRET = "an-oidc-test-secret-of-at-least-32-bytes!";
let idp: FakeOidcIssuer;

beforeAll(async () => {
  idp = await startFakeOidcIssuer();
});
afterAll(() => idp.close());

/** Cookies by name, as a browser would keep them (paths are checked by the tests that care). */
class CookieJar {
  readonly cookies = new Map<string, string>();
  readonly raw: string[] = [];

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      this.raw.push(line);
      const [pair = "", ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const expired = attrs.some((a) => /^\s*max-age=0$/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

interface Server {
  readonly app: FastifyInstance;
  readonly base: string;
  readonly store: MemoryAccountStore;
}

let server: Server | undefined;
afterEach(async () => {
  await server?.app.close();
  server = undefined;
});

function provider(extra: Partial<OidcProviderOptions> = {}): OidcProviderOptions {
  return {
    displayName: "Corp SSO",
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    ...extra,
  };
}

async function start(
  settings: Partial<OidcSettings> = {},
  extra: Partial<OidcProviderOptions> = {},
  store = new MemoryAccountStore(),
): Promise<Server> {
  const oidc = createOidcLogin({
    settings: { enabled: true, providers: { corp: provider(extra) }, timeoutSeconds: 5, ...settings },
    secret: SECRET,
  });
  const app = await createGateway({
    accounts: { store, secret: SECRET, oidcProviders: oidc.providers, routes: [oidc.routes] },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  server = { app, store, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
  return server;
}

async function get(url: string, jar?: CookieJar): Promise<Response> {
  const res = await fetch(url, { redirect: "manual", headers: jar === undefined ? {} : { cookie: jar.header() } });
  jar?.take(res);
  return res;
}

/** Starts a login and lets the provider approve it: returns the callback URL the browser is sent to. */
async function toCallback(s: Server, jar: CookieJar, query = ""): Promise<URL> {
  const start = await get(`${s.base}/api/v1/auth/oauth/corp${query}`, jar);
  expect(start.status).toBe(302);
  const approved = await get(start.headers.get("location") ?? "");
  expect(approved.status).toBe(302);
  return new URL(approved.headers.get("location") ?? "");
}

/** A whole login; returns the callback's response. */
async function login(s: Server, jar: CookieJar, query = ""): Promise<Response> {
  return get((await toCallback(s, jar, query)).href, jar);
}

beforeEach(() => {
  idp.tamper = {};
  idp.denyWith = undefined;
  idp.user = { sub: "sub-ada", email: "Ada@Example.com", email_verified: true, name: "Ada" };
});

describe("OIDC login through the gateway", () => {
  it("lists the provider next to local login", async () => {
    const s = await start();
    const res = await get(`${s.base}/api/v1/auth/providers`);
    expect(await res.json()).toEqual({ local: true, oidc: [{ id: "corp", display_name: "Corp SSO" }] });
  });

  it("signs in, lands on next, and the session cookie answers /me; a second login reuses the account", async () => {
    const s = await start();
    const jar = new CookieJar();
    const start_ = await get(`${s.base}/api/v1/auth/oauth/corp?next=${encodeURIComponent("/chat/t1?x=1")}`, jar);
    expect(start_.status).toBe(302);
    const stateCookie = jar.raw.find((c) => c.startsWith("df_oidc_state_corp="));
    expect(stateCookie).toMatch(/Path=\/api\/v1\/auth\/callback\/corp/);
    expect(stateCookie).toMatch(/HttpOnly/);
    expect(stateCookie).toMatch(/SameSite=Lax/);
    expect(stateCookie).toMatch(/Max-Age=300/);
    const authorize = new URL(start_.headers.get("location") ?? "");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${s.base}/api/v1/auth/callback/corp`);

    const approved = await get(authorize.href);
    const done = await get(approved.headers.get("location") ?? "", jar);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/chat/t1?x=1");
    expect(jar.cookies.has("access_token")).toBe(true);
    expect(jar.cookies.has("csrf_token")).toBe(true);
    expect(jar.cookies.has("df_oidc_state_corp")).toBe(false);

    const me = await get(`${s.base}/api/v1/auth/me`, jar);
    expect(me.status).toBe(200);
    const body = (await me.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ email: "ada@example.com", system_role: "user", oauth_provider: "corp" });

    const jar2 = new CookieJar();
    expect((await login(s, jar2)).headers.get("location")).toBe("/");
    const me2 = (await (await get(`${s.base}/api/v1/auth/me`, jar2)).json()) as Record<string, unknown>;
    expect(me2["id"]).toBe(body["id"]);
    expect(await s.store.countUsers()).toBe(1);
  });

  it("uses client_secret_basic when configured", async () => {
    const s = await start({}, { tokenEndpointAuthMethod: "client_secret_basic" });
    expect((await login(s, new CookieJar())).headers.get("location")).toBe("/");
    expect(idp.tokenRequests.at(-1)?.authMethod).toBe("client_secret_basic");
  });

  it("redirects to frontend_base_url and never off-site for a hostile next", async () => {
    const s = await start({ frontendBaseUrl: "https://console.example.com/" });
    for (const next of ["//evil.example", "https://evil.example", "/\\evil.example", "javascript:alert(1)"]) {
      const res = await login(s, new CookieJar(), `?next=${encodeURIComponent(next)}`);
      expect(res.headers.get("location")).toBe("https://console.example.com/");
    }
  });

  it("refuses a callback without the state cookie (403) or with another state (403)", async () => {
    const s = await start();
    const jar = new CookieJar();
    const callback = await toCallback(s, jar);
    const bare = await get(callback.href);
    expect(bare.status).toBe(403);
    expect(await bare.json()).toEqual({ detail: "Missing or expired OIDC state cookie" });

    const wrong = new URL(callback);
    wrong.searchParams.set("state", "not-the-state");
    const mismatch = await get(wrong.href, jar);
    expect(mismatch.status).toBe(403);
    expect(await mismatch.json()).toEqual({ detail: "OIDC state mismatch" });
    expect(jar.cookies.has("access_token")).toBe(false);
    expect(await s.store.countUsers()).toBe(0);
  });

  it("refuses a state cookie forged or from another secret", async () => {
    const s = await start();
    const jar = new CookieJar();
    const callback = await toCallback(s, jar);
    const value = jar.cookies.get("df_oidc_state_corp") ?? "";
    jar.cookies.set("df_oidc_state_corp", `${value.split(".")[0] ?? ""}.AAAA`);
    const res = await get(callback.href, jar);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: "Missing or expired OIDC state cookie" });
  });

  it("answers 400 without code or state", async () => {
    const s = await start();
    const res = await get(`${s.base}/api/v1/auth/callback/corp?state=x`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "Missing code or state parameter" });
  });

  it("answers 404 when SSO is off, 400 for an unknown or malformed provider", async () => {
    const off = await start({ enabled: false });
    const disabled = await get(`${off.base}/api/v1/auth/oauth/corp`);
    expect(disabled.status).toBe(404);
    expect(await disabled.json()).toEqual({ detail: "SSO authentication is not enabled" });
    expect(await (await get(`${off.base}/api/v1/auth/providers`)).json()).toEqual({ local: true, oidc: [] });
    await off.app.close();

    const s = await start();
    const unknown = await get(`${s.base}/api/v1/auth/oauth/other`);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ detail: "Unknown SSO provider: other" });
    const malformed = await get(`${s.base}/api/v1/auth/callback/a.b?code=c&state=s`);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ detail: "Invalid provider ID" });
  });

  it("answers 502 when the provider cannot be reached", async () => {
    const s = await start({}, { issuer: "http://127.0.0.1:1" });
    const res = await get(`${s.base}/api/v1/auth/oauth/corp`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ detail: "Failed to connect to SSO provider" });
  });

  it.each([
    [
      "an unverified email",
      { user: { sub: "s2", email: "bob@example.com", email_verified: false } },
      {},
      "sso_not_allowed",
    ],
    [
      "an email of another domain",
      { user: { sub: "s3", email: "eve@evil.com", email_verified: true } },
      { allowedEmailDomains: ["example.com"] },
      "sso_not_allowed",
    ],
    ["an unknown user when auto_create_users is false", {}, { autoCreateUsers: false }, "sso_not_allowed"],
    ["a nonce mismatch", { tamper: { nonce: "forged" } }, {}, "sso_failed"],
    ["a wrong audience", { tamper: { aud: "another-client" } }, {}, "sso_failed"],
    ["an expired id_token", { tamper: { expired: true } }, {}, "sso_failed"],
    ["a signature by a foreign key", { tamper: { foreignKey: true } }, {}, "sso_failed"],
    ["the provider's refusal", { denyWith: "access_denied" }, {}, "sso_failed"],
  ] as const)("refuses %s: no session, no account, back to /login", async (_label, idpSetup, extra, code) => {
    const s = await start({}, extra);
    if ("user" in idpSetup) idp.user = { ...idpSetup.user };
    if ("tamper" in idpSetup) idp.tamper = { ...idpSetup.tamper };
    if ("denyWith" in idpSetup) idp.denyWith = idpSetup.denyWith;
    const jar = new CookieJar();
    const res = await login(s, jar);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/login?error=${code}`);
    expect(jar.cookies.has("access_token")).toBe(false);
    expect(await s.store.countUsers()).toBe(0);
  });

  it("never links an existing local account with the same email", async () => {
    const s = await start();
    await s.store.createUser({ email: "ada@example.com", passwordHash: "$dfv2$x", systemRole: "admin" });
    const jar = new CookieJar();
    const res = await login(s, jar);
    expect(res.headers.get("location")).toBe("/login?error=sso_account_exists");
    expect(jar.cookies.has("access_token")).toBe(false);
    expect((await s.store.getUserByEmail("ada@example.com"))?.oauthProvider).toBeNull();
  });

  it("a login started on one instance finishes on another sharing the secret and the store", async () => {
    const a = await start();
    server = undefined; // closed by hand below
    // Behind one host both instances have the same callback URL: here, A's.
    const b = await start({}, { redirectUri: `${a.base}/api/v1/auth/callback/corp` }, a.store);
    try {
      const jar = new CookieJar();
      const callback = await toCallback(a, jar);
      // The provider redirects to A's callback; a load balancer sends it to B.
      const onB = `${b.base}${callback.pathname}${callback.search}`;
      const res = await fetch(onB, {
        redirect: "manual",
        headers: { cookie: jar.header() },
      });
      expect(res.headers.get("location")).toBe("/");
      expect(res.headers.getSetCookie().some((c) => c.startsWith("access_token="))).toBe(true);
    } finally {
      await a.app.close();
    }
  });

  it("a spent state cannot sign in twice", async () => {
    const s = await start();
    const jar = new CookieJar();
    const callback = await toCallback(s, jar);
    const cookie = jar.header();
    expect((await get(callback.href, jar)).headers.get("location")).toBe("/");
    // Replaying the callback with the old state cookie: the provider's code is single-use.
    const replay = await fetch(callback.href, { redirect: "manual", headers: { cookie } });
    expect(replay.headers.get("location")).toBe("/login?error=sso_failed");
    expect(replay.headers.getSetCookie().some((c) => c.startsWith("access_token="))).toBe(false);
  });
});
