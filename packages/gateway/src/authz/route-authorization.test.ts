import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { GatewayOptions } from "../gateway-options.js";
import { LocalThreadFiles } from "../files/local-thread-files.js";
import type { ModelCatalog } from "../models/models-routes.js";
import { AGENT_ID, startServer, type TestServer } from "../../test/support/langgraph/server.js";
import pino from "../../test/support/pino.js";
import type { AuthorizationProvider } from "./authorization-provider.js";
import { RbacAuthorizationProvider } from "./rbac-authorization-provider.js";
import { ROUTE_PERMISSIONS } from "./route-permissions.js";

const ADMIN = { authorization: "Bearer admin-key-0123456789" };
const USER = { authorization: "Bearer user-key-01234567890" };
const auth: NonNullable<GatewayOptions["auth"]> = {
  apiKeys: [
    { key: "admin-key-0123456789", admin: true },
    { key: "user-key-01234567890", userId: "alice" },
  ],
};
const catalog: ModelCatalog = {
  models: () =>
    ["fast", "smart", "huge"].map((name) => ({
      name,
      model: name,
      supportsThinking: false,
      supportsReasoningEffort: false,
    })),
  tokenUsageEnabled: false,
};
const rbac = new RbacAuthorizationProvider({
  roles: {
    admin: {},
    user: { routes: { deny: ["threads:delete", "runs:cancel"] }, models: { allow: ["smart", "huge"], deny: ["huge"] } },
  },
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(provider: AuthorizationProvider = rbac, extra: Partial<GatewayOptions> = {}): Promise<TestServer> {
  server = await startServer({
    listen: false,
    gateway: { auth, authorization: { provider, ...extra.authorization }, models: catalog, ...extra },
  });
  return server;
}

async function newThread(s: TestServer, headers = USER): Promise<string> {
  const res = await s.app.inject({ method: "POST", url: "/api/threads", headers, payload: {} });
  expect(res.statusCode).toBe(200);
  return (res.json() as { thread_id: string }).thread_id;
}

describe("route permissions", () => {
  it("403s a role without the permission with DeerFlow's detail; admins and allowed routes pass", async () => {
    const s = await start();
    const tid = await newThread(s);
    const del = await s.app.inject({ method: "DELETE", url: `/api/threads/${tid}`, headers: USER });
    expect(del.statusCode).toBe(403);
    expect(del.json()).toEqual({ detail: "Permission denied: threads:delete" });
    expect((await s.app.inject({ url: `/api/threads/${tid}`, headers: USER })).statusCode).toBe(200);
    const search = await s.app.inject({ method: "POST", url: "/api/threads/search", headers: USER, payload: {} });
    expect(search.statusCode).toBe(200);
    expect((await s.app.inject({ method: "DELETE", url: `/api/threads/${tid}`, headers: ADMIN })).statusCode).toBe(204);
  });

  it("refuses before the body is read: a denied caller gets 403, not a validation error", async () => {
    const s = await start();
    const res = await s.app.inject({
      method: "POST",
      url: "/api/threads/x/runs/y/cancel",
      headers: { ...USER, "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: "Permission denied: runs:cancel" });
  });

  it("fails closed when the provider throws or answers garbage, and open when configured so", async () => {
    const broken: AuthorizationProvider = {
      name: "broken",
      allowsRoute: () => {
        throw new Error("policy service down");
      },
      allowsTool: () => ({ allow: true }),
      allowsModel: () => "yes" as never,
    };
    let s = await start(broken);
    const search = await s.app.inject({ method: "POST", url: "/api/threads/search", headers: ADMIN, payload: {} });
    expect(search.statusCode).toBe(403);
    expect(search.json()).toEqual({ detail: "Permission denied: threads:read" });
    expect((await s.app.inject({ url: "/api/models", headers: ADMIN })).json()).toMatchObject({ models: [] });
    await s.close();
    server = undefined;
    s = await start(broken, { authorization: { provider: broken, failClosed: false } });
    expect(
      (await s.app.inject({ method: "POST", url: "/api/threads/search", headers: ADMIN, payload: {} })).statusCode,
    ).toBe(200);
    expect((await s.app.inject({ url: "/api/models", headers: ADMIN })).json()).toMatchObject({
      models: [{ name: "fast" }, { name: "smart" }, { name: "huge" }],
    });
  });

  it("applies a key's configured role, and denies a role the policy does not define", async () => {
    const guestPolicy = new RbacAuthorizationProvider({
      roles: { admin: {}, user: {}, guest: { routes: { allow: ["threads:read"] } } },
    });
    const s = await start(guestPolicy, {
      auth: {
        apiKeys: [
          { key: "guest-key-0123456789", userId: "gina", role: "guest" },
          { key: "alien-key-0123456789", userId: "al", role: "alien" },
        ],
      },
    });
    const guest = { authorization: "Bearer guest-key-0123456789" };
    expect(
      (await s.app.inject({ method: "POST", url: "/api/threads/search", headers: guest, payload: {} })).statusCode,
    ).toBe(200);
    const create = await s.app.inject({ method: "POST", url: "/api/threads", headers: guest, payload: {} });
    expect(create.json()).toEqual({ detail: "Permission denied: threads:write" });
    const alien = { authorization: "Bearer alien-key-0123456789" };
    expect(
      (await s.app.inject({ method: "POST", url: "/api/threads/search", headers: alien, payload: {} })).statusCode,
    ).toBe(403);
  });

  it("passes the caller's role and user to the provider", async () => {
    const seen: unknown[] = [];
    const recording: AuthorizationProvider = {
      name: "recording",
      allowsRoute: (subject, permission) => {
        seen.push([subject, permission]);
        return { allow: true };
      },
      allowsTool: () => ({ allow: true }),
      allowsModel: () => ({ allow: true }),
    };
    const s = await start(recording);
    await s.app.inject({ method: "POST", url: "/api/threads/count", headers: USER, payload: {} });
    await s.app.inject({ method: "POST", url: "/api/threads/count", headers: ADMIN, payload: {} });
    expect(seen).toEqual([
      [{ role: "user", userId: "alice" }, "threads:read"],
      [{ role: "admin", userId: "default" }, "threads:read"],
    ]);
  });

  it("maps every registered thread and run route to a permission, and every mapping to a route", async () => {
    const lines: string[] = [];
    const logger = pino(
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const s = await start(rbac, {
      logger,
      threadFiles: new LocalThreadFiles({ root: "/tmp/authz-route-coverage-unused" }),
    });
    const unmapped = lines.filter((l) => l.includes("route without a permission"));
    expect(unmapped).toEqual([]);
    for (const key of ROUTE_PERMISSIONS.keys()) {
      const [method = "", url = ""] = key.split(" ");
      expect(s.app.hasRoute({ method: method as "GET", url }), key).toBe(true);
    }
  });

  it("refuses an unmapped thread route (fail closed) and logs it at startup", async () => {
    const lines: string[] = [];
    const logger = pino(
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const s = await start(rbac, {
      logger,
      routes: [
        async (app) => {
          app.get("/threads/:thread_id/secret", async () => ({ leaked: true }));
        },
      ],
    });
    expect(lines.some((l) => l.includes("route without a permission") && l.includes("/secret"))).toBe(true);
    const res = await s.app.inject({ url: "/api/threads/t/secret", headers: ADMIN });
    expect(res.statusCode).toBe(403);
  });
});

describe("runs and models under authorization", () => {
  const runOf = async (s: TestServer, runId: string) => (await s.manager.get(runId))!;

  it("writes the caller's role into the run and refuses a body claiming another", async () => {
    const s = await start();
    const tid = await newThread(s);
    const ok = await s.app.inject({
      method: "POST",
      url: `/api/threads/${tid}/runs`,
      headers: USER,
      payload: { assistant_id: AGENT_ID, input: { messages: [] }, context: { user_role: "user" } },
    });
    expect(ok.statusCode).toBe(200);
    const run = await runOf(s, (ok.json() as { run_id: string }).run_id);
    expect(run.kwargs.config?.configurable?.["user_role"]).toBe("user");
    expect(run.kwargs.context?.["user_role"]).toBe("user");
    for (const payload of [
      { assistant_id: AGENT_ID, config: { configurable: { user_role: "admin" } } },
      { assistant_id: AGENT_ID, context: { user_role: "admin" } },
    ]) {
      const res = await s.app.inject({ method: "POST", url: "/api/runs/wait", headers: USER, payload });
      expect(res.statusCode).toBe(403);
      expect((res.json() as { detail: string }).detail).toMatch(/names another role/);
    }
  });

  it("lists only allowed models, 403s a denied one by name, and falls back to the first allowed for a run", async () => {
    const s = await start();
    expect((await s.app.inject({ url: "/api/models", headers: USER })).json()).toMatchObject({
      models: [{ name: "smart" }],
    });
    const one = await s.app.inject({ url: "/api/models/huge", headers: USER });
    expect(one.statusCode).toBe(403);
    expect(one.json()).toEqual({ detail: "Model 'huge' is not available for your role" });
    const tid = await newThread(s);
    const cases: Array<[Record<string, unknown>, string | undefined]> = [
      [{ context: { model_name: "huge" } }, "smart"],
      [{ config: { configurable: { model: "fast" } } }, "smart"],
      [{}, "smart"],
      [{ context: { model_name: "smart" } }, undefined],
    ];
    for (const [extra, expected] of cases) {
      const res = await s.app.inject({
        method: "POST",
        url: `/api/threads/${tid}/runs`,
        headers: USER,
        payload: { assistant_id: AGENT_ID, multitask_strategy: "enqueue", ...extra },
      });
      expect(res.statusCode, JSON.stringify(extra)).toBe(200);
      const run = await runOf(s, (res.json() as { run_id: string }).run_id);
      expect(run.kwargs.config?.configurable?.["model_name"], JSON.stringify(extra)).toBe(expected);
    }
  });

  it("answers 403 when the role may use no model", async () => {
    const none = new RbacAuthorizationProvider({ roles: { admin: {}, user: { models: { allow: false } } } });
    const s = await start(none);
    const res = await s.app.inject({
      method: "POST",
      url: "/api/runs/wait",
      headers: USER,
      payload: { assistant_id: AGENT_ID },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: "No models are authorized for the current role." });
  });
});
