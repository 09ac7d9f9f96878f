/**
 * SSO login through the real server over a socket: `auth.oidc` in config.yaml
 * (client secret from the environment), a local OpenID provider, the browser's
 * redirects followed by hand with fetch, then the session used on
 * `/api/v1/auth/me` and on a LangGraph route.
 */
import { startFakeOidcIssuer, type FakeOidcIssuer } from "@deerflow/gateway/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { oidcAuthYaml, oidcServerEnv } from "../support/oidc-config.js";
import { startServer, type TestServer } from "../support/server-harness.js";
import { tempDirs } from "../support/temp-dir.js";

const temp = tempDirs();
let idp: FakeOidcIssuer;
let running: TestServer | undefined;

beforeAll(async () => {
  idp = await startFakeOidcIssuer({ user: { sub: "kc-42", email: "Grace@Example.com", email_verified: true } });
});
afterAll(() => idp.close());
beforeEach(() => {
  idp.tamper = {};
  idp.user = { sub: "kc-42", email: "Grace@Example.com", email_verified: true };
});
afterEach(async () => {
  await running?.server.close();
  running = undefined;
  await temp.cleanup();
});

function config(): string {
  return `
storage:
  data_dir: ./data
${oidcAuthYaml(idp)}`;
}

async function start(yaml: string): Promise<TestServer> {
  running = await startServer(await temp.make(), yaml, {
    env: oidcServerEnv(idp),
    consoleDir: false,
  });
  return running;
}

/** Cookies by name across responses (Max-Age=0 removes one). */
function keep(jar: Map<string, string>, res: Response): Response {
  for (const line of res.headers.getSetCookie()) {
    const [pair = "", ...attrs] = line.split(";");
    const eq = pair.indexOf("=");
    if (attrs.some((a) => /^\s*max-age=0$/i.test(a))) jar.delete(pair.slice(0, eq));
    else jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return res;
}

function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

async function follow(url: string, jar: Map<string, string>): Promise<Response> {
  return keep(jar, await fetch(url, { redirect: "manual", headers: { cookie: cookieHeader(jar) } }));
}

/** Login button → provider → callback; returns the callback's response. */
async function ssoLogin(url: string, jar: Map<string, string>, next = "/threads"): Promise<Response> {
  const begin = await follow(`${url}/api/v1/auth/oauth/keycloak?next=${encodeURIComponent(next)}`, jar);
  expect(begin.status).toBe(302);
  const approved = await fetch(begin.headers.get("location") ?? "", { redirect: "manual" });
  expect(approved.status).toBe(302);
  const callback = approved.headers.get("location") ?? "";
  expect(callback.startsWith(`${url}/api/v1/auth/callback/keycloak?`)).toBe(true);
  return follow(callback, jar);
}

describe("SSO login on the server (auth.oidc)", () => {
  it("lists the provider, signs in, and the session works on /me and the LangGraph API", async () => {
    const { url } = await start(config());
    expect(await (await fetch(`${url}/api/v1/auth/providers`)).json()).toEqual({
      local: true,
      oidc: [{ id: "keycloak", display_name: "Company SSO" }],
    });

    const jar = new Map<string, string>();
    const done = await ssoLogin(url, jar);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/threads");
    // The secret came from ${OIDC_CLIENT_SECRET} and went out as client_secret_post.
    expect(idp.tokenRequests.at(-1)).toMatchObject({ authMethod: "client_secret_post" });

    const me = await fetch(`${url}/api/v1/auth/me`, { headers: { cookie: cookieHeader(jar) } });
    expect(me.status).toBe(200);
    const user = (await me.json()) as Record<string, unknown>;
    expect(user).toMatchObject({ email: "grace@example.com", system_role: "user", oauth_provider: "keycloak" });

    const thread = await fetch(`${url}/api/threads`, {
      method: "POST",
      headers: {
        cookie: cookieHeader(jar),
        "content-type": "application/json",
        "x-csrf-token": jar.get("csrf_token") ?? "",
      },
      body: "{}",
    });
    expect(thread.status).toBe(200);
    expect(((await thread.json()) as { metadata: Record<string, unknown> }).metadata["owner"]).toBe(user["id"]);

    // A second login of the same person (new browser) is the same account.
    const other = new Map<string, string>();
    await ssoLogin(url, other);
    const again = (await (
      await fetch(`${url}/api/v1/auth/me`, { headers: { cookie: cookieHeader(other) } })
    ).json()) as Record<string, unknown>;
    expect(again["id"]).toBe(user["id"]);
  });

  it("refuses a domain outside allowed_email_domains and a tampered id_token, without a session", async () => {
    const { url } = await start(config());
    idp.user = { sub: "kc-43", email: "eve@evil.com", email_verified: true };
    const jar = new Map<string, string>();
    expect((await ssoLogin(url, jar)).headers.get("location")).toBe("/login?error=sso_not_allowed");
    idp.user = { sub: "kc-44", email: "bob@example.com", email_verified: true };
    idp.tamper = { aud: "not-deerflow" };
    expect((await ssoLogin(url, jar)).headers.get("location")).toBe("/login?error=sso_failed");
    expect(jar.has("access_token")).toBe(false);
    expect((await fetch(`${url}/api/v1/auth/me`, { headers: { cookie: cookieHeader(jar) } })).status).toBe(401);
  });

  it("answers 404 on the SSO routes while auth.oidc is off", async () => {
    const { url } = await start(config().replace("oidc:\n    enabled: true", "oidc:\n    enabled: false"));
    const res = await fetch(`${url}/api/v1/auth/oauth/keycloak`, { redirect: "manual" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "SSO authentication is not enabled" });
    expect(await (await fetch(`${url}/api/v1/auth/providers`)).json()).toEqual({ local: true, oidc: [] });
  });
});
