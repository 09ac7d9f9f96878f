import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SandboxError } from "../../errors.js";
import { MemorySandboxProvider, type MemorySandbox } from "../../../test/support/remote/memory-sandbox.js";
import { createSandboxServer } from "./create-sandbox-server.js";

const KEY = "s3cret-key";
const auth = { "x-api-key": KEY };

type Json = Record<string, unknown>;

function errorOf(res: LightMyRequestResponse): { code: string; message: string; path?: string } {
  return (res.json() as { error: { code: string; message: string; path?: string } }).error;
}

describe("createSandboxServer", () => {
  let provider: MemorySandboxProvider;
  let app: FastifyInstance;

  async function post(
    url: string,
    payload: Json,
    headers: Record<string, string> = auth,
  ): Promise<LightMyRequestResponse> {
    return app.inject({ method: "POST", url, payload, headers });
  }

  async function create(sandboxId = "sb1", threadId = "t1", userId = "u1"): Promise<MemorySandbox> {
    const res = await post("/api/sandboxes", { sandbox_id: sandboxId, thread_id: threadId, user_id: userId });
    expect(res.statusCode).toBe(200);
    const sandbox = provider.get(`mem:default.${userId}:${threadId}`);
    if (sandbox === undefined) throw new Error("not acquired");
    return sandbox;
  }

  beforeEach(() => {
    provider = new MemorySandboxProvider();
    app = createSandboxServer({ provider, token: KEY, bodyLimit: 4096 });
  });

  afterEach(async () => {
    await app.close();
  });

  describe("authentication", () => {
    it("rejects a request without X-API-Key with 401", async () => {
      const res = await app.inject({ method: "GET", url: "/api/sandboxes" });
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).code).toBe("UNAUTHORIZED");
    });

    it("rejects a wrong key of the same length with 401", async () => {
      const res = await app.inject({ method: "GET", url: "/api/sandboxes", headers: { "x-api-key": "s3cret-kez" } });
      expect(res.statusCode).toBe(401);
    });

    it("rejects a wrong key of another length with 401", async () => {
      const res = await app.inject({ method: "GET", url: "/api/sandboxes", headers: { "x-api-key": `${KEY}${KEY}` } });
      expect(res.statusCode).toBe(401);
    });

    it("answers 401 before parsing the body", async () => {
      const res = await app.inject({
        method: "POST",
        url: "/api/sandboxes",
        payload: "{not json",
        headers: { "content-type": "application/json" },
      });
      expect(res.statusCode).toBe(401);
    });

    it("answers 401 rather than 404 for unknown routes", async () => {
      const res = await app.inject({ method: "GET", url: "/nope" });
      expect(res.statusCode).toBe(401);
    });

    it("serves /healthz without a key", async () => {
      const res = await app.inject({ method: "GET", url: "/healthz" });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: "ok" });
    });

    it("accepts the token and the client keys side by side, each in its own namespace", async () => {
      const multi = createSandboxServer({ provider, token: KEY, clients: [{ id: "other", key: "other-key" }] });
      const createAs = (key: string) =>
        multi.inject({
          method: "POST",
          url: "/api/sandboxes",
          payload: { sandbox_id: "same", thread_id: "t1", user_id: "u1" },
          headers: { "x-api-key": key },
        });
      expect((await createAs(KEY)).statusCode).toBe(200);
      expect((await createAs("other-key")).statusCode).toBe(200);
      expect([...provider.sandboxes.keys()].sort()).toEqual(["mem:default.u1:t1", "mem:other.u1:t1"]);
      await multi.close();
    });

    it("refuses a key configuration with a repeated client id, before building anything", () => {
      let code: unknown;
      try {
        createSandboxServer({ provider, token: KEY, clients: [{ id: "default", key: "another-key" }] });
      } catch (err) {
        code = (err as SandboxError).code;
      }
      expect(code).toBe("CONFIG_INVALID");
    });

    it("accepts every request when no token is configured", async () => {
      const open = createSandboxServer({ provider });
      const res = await open.inject({ method: "GET", url: "/api/sandboxes" });
      expect(res.statusCode).toBe(200);
      await open.close();
    });
  });

  describe("validation", () => {
    it("rejects unknown body members with 400 INVALID_ARGUMENT", async () => {
      const res = await post("/api/sandboxes", { sandbox_id: "a", thread_id: "t", extra: 1 });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).code).toBe("INVALID_ARGUMENT");
    });

    it("does not coerce types", async () => {
      await create();
      const res = await post("/sandboxes/sb1/v1/file/write", {
        file: "/mnt/user-data/a",
        content: "x",
        append: "true",
      });
      expect(res.statusCode).toBe(400);
    });

    it("rejects a missing required member", async () => {
      const res = await post("/api/sandboxes", { thread_id: "t" });
      expect(errorOf(res).code).toBe("INVALID_ARGUMENT");
    });

    it("rejects sandbox ids that are not URL-safe", async () => {
      const res = await post("/api/sandboxes", { sandbox_id: "../x", thread_id: "t" });
      expect(res.statusCode).toBe(400);
    });

    it("rejects numbers sent as strings", async () => {
      await create();
      const res = await post("/sandboxes/sb1/v1/file/read", { file: "/mnt/user-data/a", start_line: "1" });
      expect(res.statusCode).toBe(400);
    });

    it("passes environment names to the sandbox, whose INVALID_ARGUMENT comes back as 400", async () => {
      await create();
      const res = await post("/sandboxes/sb1/v1/shell/exec", { command: "env", env: { "A-B": "1" } });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).code).toBe("INVALID_ARGUMENT");
    });

    it("answers 413 TOO_LARGE over the body limit", async () => {
      await create();
      const res = await post("/sandboxes/sb1/v1/file/write", { file: "/mnt/user-data/a", content: "x".repeat(10_000) });
      expect(res.statusCode).toBe(413);
      expect(errorOf(res).code).toBe("TOO_LARGE");
    });

    it("answers 404 ROUTE_NOT_FOUND for unknown routes", async () => {
      const res = await app.inject({ method: "GET", url: "/v2/whatever", headers: auth });
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).code).toBe("ROUTE_NOT_FOUND");
    });
  });

  describe("provisioner routes", () => {
    it("creates a sandbox whose url is based on the request's host", async () => {
      const res = await app.inject({
        method: "POST",
        url: "/api/sandboxes",
        payload: { sandbox_id: "abc", thread_id: "t1", user_id: "u1", include_legacy_skills: true },
        headers: { ...auth, host: "sandbox.test:9000" },
      });
      expect(res.json()).toEqual({
        sandbox_id: "abc",
        sandbox_url: "http://sandbox.test:9000/sandboxes/abc",
        status: "Running",
        thread_id: "t1",
        user_id: "u1",
      });
    });

    it("uses publicUrl for sandbox urls when configured", async () => {
      const pub = createSandboxServer({ provider, publicUrl: "https://sbx.example/" });
      const res = await pub.inject({
        method: "POST",
        url: "/api/sandboxes",
        payload: { sandbox_id: "abc", thread_id: "t1" },
      });
      expect((res.json() as Json).sandbox_url).toBe("https://sbx.example/sandboxes/abc");
      expect((res.json() as Json).user_id).toBe("default");
      await pub.close();
    });

    it("is idempotent for the same id and thread", async () => {
      await create();
      await create();
      expect(provider.sandboxes.size).toBe(1);
    });

    it("answers 409 CONFLICT when the id belongs to another thread", async () => {
      await create("sb1", "t1");
      const res = await post("/api/sandboxes", { sandbox_id: "sb1", thread_id: "t2", user_id: "u1" });
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).code).toBe("CONFLICT");
    });

    it("answers 409 CONFLICT when the thread already has another id", async () => {
      await create("sb1", "t1");
      const res = await post("/api/sandboxes", { sandbox_id: "sb2", thread_id: "t1", user_id: "u1" });
      expect(res.statusCode).toBe(409);
    });

    it("reports a hosted sandbox as Running and lists it", async () => {
      await create();
      const one = await app.inject({ method: "GET", url: "/api/sandboxes/sb1", headers: auth });
      expect((one.json() as Json).status).toBe("Running");
      const all = await app.inject({ method: "GET", url: "/api/sandboxes", headers: auth });
      expect((all.json() as { sandboxes: Json[] }).sandboxes.map((s) => s.sandbox_id)).toEqual(["sb1"]);
    });

    it("deletes a sandbox: releases it to the provider and forgets it", async () => {
      await create();
      const del = await app.inject({ method: "DELETE", url: "/api/sandboxes/sb1", headers: auth });
      expect(del.json()).toEqual({ sandbox_id: "sb1", deleted: true });
      expect(provider.released).toEqual(["mem:default.u1:t1"]);
      const gone = await app.inject({ method: "GET", url: "/api/sandboxes/sb1", headers: auth });
      expect(gone.statusCode).toBe(404);
      expect(errorOf(gone).code).toBe("SANDBOX_NOT_FOUND");
    });

    it("answers 404 SANDBOX_NOT_FOUND for routes of an unknown sandbox", async () => {
      const res = await app.inject({ method: "GET", url: "/sandboxes/zzz/v1/sandbox", headers: auth });
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).code).toBe("SANDBOX_NOT_FOUND");
    });

    it("aborts running commands when the sandbox is deleted", async () => {
      const sandbox = await create();
      let seen: AbortSignal | undefined;
      sandbox.executeHandler = (_command, options) =>
        new Promise((_, reject) => {
          seen = options.signal;
          options.signal?.addEventListener("abort", () => reject(new SandboxError("ABORTED", "aborted")));
        });
      const running = post("/sandboxes/sb1/v1/shell/exec", { command: "sleep 100" });
      await vi.waitFor(() => expect(seen).toBeDefined());
      await app.inject({ method: "DELETE", url: "/api/sandboxes/sb1", headers: auth });
      const res = await running;
      expect(seen?.aborted).toBe(true);
      expect(errorOf(res).code).toBe("ABORTED");
    });
  });
});
