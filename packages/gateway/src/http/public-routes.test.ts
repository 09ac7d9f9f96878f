import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayError } from "../errors.js";
import { createGateway } from "../gateway.js";
import type { GatewayOptions } from "../gateway-options.js";
import { drainGateway } from "./drain.js";

const KEY = "k".repeat(32);
const WITH_KEY = { authorization: `Bearer ${KEY}` };

/** An API plugin (under /api): a fixed route and a parametric one. */
const api: FastifyPluginAsync = async (app) => {
  app.get("/secret", { schema: { summary: "Secret" } }, async () => ({ secret: true }));
  app.get("/things/:id", async (request) => ({ thing: (request.params as { id: string }).id }));
};

/** A console-like public plugin: facts under /api and a wildcard page route at the root. */
const site: FastifyPluginAsync = async (app) => {
  app.get(
    "/api/info",
    {
      schema: { summary: "Facts", response: { 200: { type: "object", properties: { version: { type: "string" } } } } },
    },
    async () => ({
      version: "1.0.0",
    }),
  );
  app.get("/*", async (request) => `page ${request.url}`);
};

let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function gateway(options: GatewayOptions): Promise<FastifyInstance> {
  app = await createGateway(options);
  return app;
}

async function codeOf(build: Promise<unknown>): Promise<string | undefined> {
  try {
    await build;
    return undefined;
  } catch (err) {
    return GatewayError.isInstance(err) ? err.code : String(err);
  }
}

describe("publicRoutes", () => {
  it("answers public routes without a key while every other route still needs one", async () => {
    const gw = await gateway({ auth: { apiKeys: [{ key: KEY }] }, routes: [api], publicRoutes: [site] });
    expect((await gw.inject({ url: "/api/info" })).json()).toEqual({ version: "1.0.0" });
    expect((await gw.inject({ url: "/chat/abc" })).body).toBe("page /chat/abc");
    expect((await gw.inject({ method: "HEAD", url: "/chat/abc" })).statusCode).toBe(200);

    expect((await gw.inject({ url: "/api/secret" })).statusCode).toBe(401);
    expect((await gw.inject({ url: "/api/secret", headers: WITH_KEY })).json()).toEqual({ secret: true });
    expect((await gw.inject({ method: "POST", url: "/chat/abc" })).statusCode).toBe(401);
    // The gateway's own root routes keep their answers.
    expect((await gw.inject({ url: "/ok" })).json()).toEqual({ ok: true });
    expect((await gw.inject({ url: "/openapi.json" })).statusCode).toBe(401);
  });

  it("never lets a wildcard public route answer a path under /api", async () => {
    const gw = await gateway({ auth: { apiKeys: [{ key: KEY }] }, routes: [api], publicRoutes: [site] });
    for (const url of ["/api", "/api/unknown", "/api/things/1/extra"]) {
      expect((await gw.inject({ url })).statusCode, url).toBe(401);
      const res = await gw.inject({ url, headers: WITH_KEY });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ detail: "Not Found" });
    }
    expect((await gw.inject({ url: "/api/things/7", headers: WITH_KEY })).json()).toEqual({ thing: "7" });
  });

  it("refuses a public route that could shadow an API route", async () => {
    const shadows: FastifyPluginAsync[] = [
      async (p) => void p.get("/api/secret", async () => "mine"),
      async (p) => void p.get("/api/things/special", async () => "mine"),
      async (p) => void p.get("/api/:anything", async () => "mine"),
      async (p) => void p.get("/api/*", async () => "mine"),
    ];
    for (const shadow of shadows) {
      expect(await codeOf(createGateway({ routes: [api], publicRoutes: [shadow] }))).toBe("CONFIG_INVALID");
    }
    // Another method on the same path is not a shadow.
    const gw = await gateway({
      auth: { apiKeys: [{ key: KEY }] },
      routes: [api],
      publicRoutes: [async (p) => void p.post("/api/things/special", async () => "posted")],
    });
    expect((await gw.inject({ method: "POST", url: "/api/things/special" })).body).toBe("posted");
  });

  it("keeps answering public routes while the gateway drains", async () => {
    const gw = await gateway({ routes: [api], publicRoutes: [site] });
    drainGateway(gw);
    expect((await gw.inject({ url: "/api/info" })).statusCode).toBe(200);
    expect((await gw.inject({ url: "/chat" })).statusCode).toBe(200);
    expect((await gw.inject({ url: "/api/secret" })).statusCode).toBe(503);
  });

  it("documents public routes without the key requirement", async () => {
    const gw = await gateway({ auth: { apiKeys: [{ key: KEY }] }, routes: [api], publicRoutes: [site] });
    const doc = (await gw.inject({ url: "/openapi.json", headers: WITH_KEY })).json<{
      paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
    }>();
    expect(doc.paths["/api/info"]?.["get"]?.security).toEqual([]);
    expect(doc.paths["/api/info"]?.["get"]?.responses["401"]).toBeUndefined();
    expect(doc.paths["/api/secret"]?.["get"]?.responses["401"]).toBeDefined();
  });

  it("serves public routes the same without authentication", async () => {
    const gw = await gateway({ routes: [api], publicRoutes: [site] });
    expect((await gw.inject({ url: "/api/info" })).json()).toEqual({ version: "1.0.0" });
    expect((await gw.inject({ url: "/api/unknown" })).statusCode).toBe(404);
  });
});
