import { Writable } from "node:stream";
import Fastify, { type FastifyPluginAsync } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { DRAINING_MESSAGE, GatewayError, createGateway, drainGateway, type GatewayOptions } from "./index.js";
import { ADMIN_KEY, USER_KEY, createFixture, type Fixture } from "../test/support/fixture.js";
import pino from "../test/support/pino.js";

/** A runtime-shaped error (code + shared brand) without importing @deerflow/runtime. */
function runtimeError(code: string, message: string): Error {
  const err = Object.assign(new Error(message), { code, name: "RuntimeError" });
  Object.defineProperty(err, Symbol.for("@deerflow/error"), { value: true });
  return err;
}

/** A stand-in for the LangGraph routes plugin. */
const runsRoutes: FastifyPluginAsync = async (app) => {
  app.get("/threads/:thread_id/runs/:run_id", async (request) => {
    const { run_id: runId } = request.params as { run_id: string };
    if (runId === "busy") throw runtimeError("THREAD_BUSY", "Thread t1 already has an active run");
    if (runId === "down") throw runtimeError("STORE_UNAVAILABLE", "postgres://user:pw@db:5432 unreachable");
    if (runId === "bug") throw new Error("/srv/app/secret.ts exploded");
    throw runtimeError("RUN_NOT_FOUND", `Run ${runId} not found`);
  });
  app.post("/threads/:thread_id/runs/stream", async (_request, reply) =>
    reply.header("content-location", "/api/threads/t1/runs/r1").send({ ok: true }),
  );
};

describe("createGateway", () => {
  let fx: Fixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  async function setup(options: { auth?: boolean; gateway?: Partial<GatewayOptions> } = {}): Promise<Fixture> {
    fx = await createFixture(options);
    return fx;
  }

  describe("probes", () => {
    it("answers /health and /ok", async () => {
      const { app } = await setup();
      expect((await app.inject({ url: "/health" })).json()).toEqual({ status: "ok" });
      expect((await app.inject({ url: "/ok" })).json()).toEqual({ ok: true });
    });

    it("reports component checks and answers 503 naming the failed one without its reason", async () => {
      const { app } = await setup({
        gateway: {
          healthChecks: {
            store: async () => undefined,
            redis: async () => Promise.reject(new Error("ECONNREFUSED 10.0.0.7:6379")),
          },
        },
      });
      const res = await app.inject({ url: "/health" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: "unavailable", checks: { store: "ok", redis: "failed" } });
      expect(res.body).not.toContain("10.0.0.7");
    });

    it("fails a check that never settles", async () => {
      const { app } = await setup({
        gateway: { healthChecks: { slow: () => new Promise(() => undefined) }, healthCheckTimeoutMs: 20 },
      });
      const res = await app.inject({ url: "/health" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: "unavailable", checks: { slow: "failed" } });
    });

    it("answers 200 with every check ok", async () => {
      const { app } = await setup({ gateway: { healthChecks: { store: async () => undefined } } });
      expect((await app.inject({ url: "/health" })).json()).toEqual({ status: "ok", checks: { store: "ok" } });
    });

    it("adds healthDetails to every answer, and leaves out a provider that throws", async () => {
      let gaps = 0;
      const { app } = await setup({
        gateway: {
          healthChecks: { store: async () => undefined },
          healthDetails: () => ({ stream_bridge: { slow_subscriber_gaps: gaps } }),
        },
      });
      expect((await app.inject({ url: "/health" })).json()).toEqual({
        status: "ok",
        checks: { store: "ok" },
        details: { stream_bridge: { slow_subscriber_gaps: 0 } },
      });
      gaps = 2;
      expect((await app.inject({ url: "/health" })).json().details).toEqual({
        stream_bridge: { slow_subscriber_gaps: 2 },
      });
      await fx?.close();
      const broken = await setup({
        gateway: {
          healthDetails: () => {
            throw new Error("boom");
          },
        },
      });
      expect((await broken.app.inject({ url: "/health" })).json()).toEqual({ status: "ok" });
    });

    it("while draining: 503 with Retry-After before authentication, /health 503 draining, /ok 200", async () => {
      const { app } = await setup({ auth: true, gateway: { healthDetails: () => ({ local_runs: 1 }) } });
      drainGateway(app, { retryAfterSeconds: 7 });
      for (const url of ["/api/skills", "/nowhere"]) {
        const res = await app.inject({ url });
        expect(res.statusCode).toBe(503);
        expect(res.headers["retry-after"]).toBe("7");
        expect(res.json()).toEqual({ detail: DRAINING_MESSAGE });
      }
      const health = await app.inject({ url: "/health" });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual({ status: "unavailable", draining: true, details: { local_runs: 1 } });
      expect((await app.inject({ url: "/ok" })).statusCode).toBe(200);
    });

    it("drainGateway refuses an app createGateway did not build, and a bad Retry-After", async () => {
      const { app } = await setup();
      expect(() => drainGateway(Fastify())).toThrow(/not built by createGateway/);
      expect(() => drainGateway(app, { retryAfterSeconds: 0 })).toThrow(/retryAfterSeconds/);
    });
  });

  describe("errors", () => {
    it("answers unknown routes with 404 Not Found", async () => {
      const { app } = await setup();
      const res = await app.inject({ url: "/api/nothing-here" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: "Not Found" });
    });

    it("answers malformed JSON with 400", async () => {
      const { app } = await setup();
      const res = await app.inject({
        method: "PUT",
        url: "/api/skills/deep-research",
        payload: '{"enabled": tru',
        headers: { "content-type": "application/json" },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: "Malformed JSON in request body." });
    });

    it("refuses a prototype-poisoning body", async () => {
      const { app } = await setup();
      const res = await app.inject({
        method: "PUT",
        url: "/api/skills/deep-research",
        payload: '{"enabled": true, "__proto__": {"admin": true}}',
        headers: { "content-type": "application/json" },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: "Malformed JSON in request body." });
    });

    it("answers a wrong content type with 415", async () => {
      const { app } = await setup();
      const res = await app.inject({
        method: "PUT",
        url: "/api/skills/deep-research",
        payload: "enabled=true",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ detail: "Unsupported Media Type: application/x-www-form-urlencoded" });
    });

    it("answers a body over bodyLimit with 413", async () => {
      const { app } = await setup({ gateway: { bodyLimit: 1024 } });
      const res = await app.inject({
        method: "PUT",
        url: "/api/skills/custom/x",
        payload: { content: "x".repeat(2048) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ detail: "Request body is too large." });
    });

    it("validates bodies into a FastAPI-style 422 naming the field", async () => {
      const { app } = await setup();
      const res = await app.inject({ method: "PUT", url: "/api/skills/deep-research", payload: { enabled: "maybe" } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        detail: [{ loc: ["body", "enabled"], msg: "Input should be a valid boolean", type: "bool_type" }],
      });
    });

    it("rejects unknown members instead of dropping them", async () => {
      const { app } = await setup();
      const res = await app.inject({
        method: "PUT",
        url: "/api/skills/deep-research",
        payload: { enabled: true, admin: true },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        detail: [{ loc: ["body", "admin"], msg: "Extra inputs are not permitted", type: "extra_forbidden" }],
      });
    });

    it("answers a missing body with 422 on routes that need one", async () => {
      const { app } = await setup();
      const res = await app.inject({
        method: "PUT",
        url: "/api/skills/deep-research",
        headers: { "content-type": "application/json" },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(["body"]);
    });
  });

  describe("extra route plugins", () => {
    it("mounts them under /api and maps runtime error codes through the table", async () => {
      const { app } = await setup({ gateway: { routes: [runsRoutes] } });
      const get = (id: string) => app.inject({ url: `/api/threads/t1/runs/${id}` });
      expect((await get("r9")).statusCode).toBe(404);
      expect((await get("r9")).json()).toEqual({ detail: "Run r9 not found" });
      expect((await get("busy")).statusCode).toBe(409);
      const down = await get("down");
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ detail: "Service Unavailable" });
      // Unavailability is passing: the client is told when to retry.
      expect(down.headers["retry-after"]).toBe("5");
      expect((await get("busy")).headers["retry-after"]).toBeUndefined();
      const bug = await get("bug");
      expect(bug.statusCode).toBe(500);
      expect(bug.json()).toEqual({ detail: "Internal Server Error" });
    });

    it("logs server errors with the error, through an injected logger", async () => {
      const lines: string[] = [];
      const logger = pino(new Writable({ write: (chunk: Buffer, _e, cb) => (lines.push(chunk.toString()), cb()) }));
      const { app } = await setup({ gateway: { routes: [runsRoutes], logger } });
      await app.inject({ url: "/api/threads/t1/runs/bug" });
      const failure = lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l["msg"] === "request failed");
      expect(failure?.["level"]).toBe(50);
      expect(JSON.stringify(failure?.["err"])).toContain("exploded");
    });
  });

  describe("authentication", () => {
    it("rejects a request without a key with 401", async () => {
      const { app } = await setup({ auth: true });
      const res = await app.inject({ url: "/api/skills" });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: "Missing or invalid API key." });
    });

    it.each([
      ["a wrong bearer token", { authorization: "Bearer wrong-key-0123456789" }],
      ["a wrong X-API-Key", { "x-api-key": `${ADMIN_KEY}x` }],
      ["a key with another scheme", { authorization: `Basic ${ADMIN_KEY}` }],
    ])("rejects %s", async (_l, headers) => {
      const { app } = await setup({ auth: true });
      expect((await app.inject({ url: "/api/skills", headers })).statusCode).toBe(401);
    });

    it("accepts Bearer and X-API-Key", async () => {
      const { app } = await setup({ auth: true });
      expect(
        (await app.inject({ url: "/api/skills", headers: { authorization: `Bearer ${USER_KEY}` } })).statusCode,
      ).toBe(200);
      expect((await app.inject({ url: "/api/skills", headers: { "x-api-key": USER_KEY } })).statusCode).toBe(200);
    });

    it("answers 401 before parsing a body or matching a route", async () => {
      const { app } = await setup({ auth: true });
      expect(
        (
          await app.inject({
            method: "POST",
            url: "/api/skills/install",
            payload: "{not json",
            headers: { "content-type": "application/json" },
          })
        ).statusCode,
      ).toBe(401);
      expect((await app.inject({ url: "/api/unknown" })).statusCode).toBe(401);
    });

    it("keeps /health, /ok and preflights open", async () => {
      const { app } = await setup({ auth: true, gateway: { cors: { origins: "*" } } });
      expect((await app.inject({ url: "/health" })).statusCode).toBe(200);
      expect((await app.inject({ url: "/ok?x=1" })).statusCode).toBe(200);
      const pre = await app.inject({
        method: "OPTIONS",
        url: "/api/skills",
        headers: { origin: "http://x.test", "access-control-request-method": "GET" },
      });
      expect(pre.statusCode).toBe(204);
    });

    it("refuses bad key configuration at startup", async () => {
      await expect(createGateway({ auth: { apiKeys: [] } })).rejects.toSatisfy(
        (e) => GatewayError.isInstance(e) && e.code === "CONFIG_INVALID",
      );
      await expect(createGateway({ bodyLimit: -1 })).rejects.toSatisfy(
        (e) => GatewayError.isInstance(e) && e.code === "CONFIG_INVALID",
      );
    });
  });

  describe("CORS", () => {
    const preflight = {
      origin: "http://console.test",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type,last-event-id,authorization",
    };

    it("answers a preflight allowing Last-Event-ID and exposing Content-Location", async () => {
      const { app } = await setup({ auth: true, gateway: { cors: { origins: ["http://console.test"] } } });
      const res = await app.inject({ method: "OPTIONS", url: "/api/threads/t1/runs/stream", headers: preflight });
      expect(res.statusCode).toBe(204);
      expect(res.headers["access-control-allow-origin"]).toBe("http://console.test");
      expect(String(res.headers["access-control-allow-headers"]).toLowerCase()).toContain("last-event-id");
      expect(String(res.headers["access-control-expose-headers"])).toContain("Content-Location");
      expect(String(res.headers["access-control-allow-methods"])).toContain("DELETE");
    });

    it("exposes Content-Location on actual responses, errors included", async () => {
      const { app } = await setup({
        auth: true,
        gateway: { cors: { origins: ["http://console.test"] }, routes: [runsRoutes] },
      });
      const ok = await app.inject({
        method: "POST",
        url: "/api/threads/t1/runs/stream",
        headers: { origin: "http://console.test", "x-api-key": USER_KEY },
      });
      expect(ok.headers["content-location"]).toBe("/api/threads/t1/runs/r1");
      expect(String(ok.headers["access-control-expose-headers"])).toContain("Content-Location");
      const denied = await app.inject({ url: "/api/skills", headers: { origin: "http://console.test" } });
      expect(denied.statusCode).toBe(401);
      expect(denied.headers["access-control-allow-origin"]).toBe("http://console.test");
    });

    it("does not allow an unlisted origin", async () => {
      const { app } = await setup({ gateway: { cors: { origins: ["http://console.test"] } } });
      const res = await app.inject({
        method: "OPTIONS",
        url: "/api/skills",
        headers: { ...preflight, origin: "http://evil.test" },
      });
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    });

    it("reflects the origin for '*' with credentials", async () => {
      const { app } = await setup({ gateway: { cors: { origins: "*", credentials: true } } });
      const res = await app.inject({ url: "/api/skills", headers: { origin: "http://any.test" } });
      expect(res.headers["access-control-allow-origin"]).toBe("http://any.test");
      expect(res.headers["access-control-allow-credentials"]).toBe("true");
    });

    it("sends no CORS headers without the option", async () => {
      const { app } = await setup();
      const res = await app.inject({ url: "/api/skills", headers: { origin: "http://console.test" } });
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    });
  });
});
