import type { FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSandboxServer } from "../server/create-sandbox-server.js";
import { injectFetch, refusedFetch } from "../../../test/support/remote/inject-fetch.js";
import { MemorySandboxProvider } from "../../../test/support/remote/memory-sandbox.js";
import { HttpProvisionerBackend } from "./http-provisioner-backend.js";

describe("HttpProvisionerBackend", () => {
  let app: FastifyInstance;
  let provider: MemorySandboxProvider;
  let backend: HttpProvisionerBackend;

  beforeEach(() => {
    provider = new MemorySandboxProvider();
    app = createSandboxServer({ provider, token: "k" });
    backend = new HttpProvisionerBackend({ url: "http://svc.test:8080/", apiKey: "k", fetch: injectFetch(app) });
  });

  afterEach(async () => {
    await app.close();
  });

  it("creates a sandbox and returns its url", async () => {
    expect(await backend.create("abc", "t1", "u1")).toEqual({ url: "http://svc.test:8080/sandboxes/abc" });
    expect(provider.sandboxes.has("mem:default.u1:t1")).toBe(true);
  });

  it("discovers a running sandbox and nothing for an unknown id", async () => {
    await backend.create("abc", "t1", "u1");
    expect(await backend.discover("abc")).toEqual({ url: "http://svc.test:8080/sandboxes/abc" });
    expect(await backend.discover("nope")).toBeNull();
  });

  it("reports liveness", async () => {
    await backend.create("abc", "t1", "u1");
    expect(await backend.isAlive("abc")).toBe(true);
    await backend.destroy("abc");
    expect(await backend.isAlive("abc")).toBe(false);
  });

  it("destroys idempotently", async () => {
    await backend.create("abc", "t1", "u1");
    await backend.destroy("abc");
    await expect(backend.destroy("abc")).resolves.toBeUndefined();
    expect(provider.released).toEqual(["mem:default.u1:t1"]);
  });

  it("lists sandboxes", async () => {
    await backend.create("a", "t1", "u1");
    await backend.create("b", "t2", "u1");
    expect(await backend.list()).toEqual([
      { id: "a", url: "http://svc.test:8080/sandboxes/a" },
      { id: "b", url: "http://svc.test:8080/sandboxes/b" },
    ]);
  });

  it("rebuilds the service's conflict as INVALID_ARGUMENT", async () => {
    await backend.create("a", "t1", "u1");
    await expect(backend.create("a", "t2", "u1")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("reports a wrong key as CONFIG_INVALID", async () => {
    const wrong = new HttpProvisionerBackend({ url: "http://svc.test", apiKey: "x", fetch: injectFetch(app) });
    await expect(wrong.list()).rejects.toMatchObject({ code: "CONFIG_INVALID" });
  });

  it("does not mistake an unknown route for a gone sandbox", async () => {
    const misrouted = new HttpProvisionerBackend({
      url: "http://svc.test/prefix",
      apiKey: "k",
      fetch: injectFetch(app),
    });
    await expect(misrouted.isAlive("a")).rejects.toMatchObject({ code: "CONFIG_INVALID" });
  });

  it("reports an unreachable provisioner as UNAVAILABLE", async () => {
    const down = new HttpProvisionerBackend({ url: "http://svc.test", fetch: refusedFetch() });
    await expect(down.discover("a")).rejects.toMatchObject({ code: "UNAVAILABLE" });
  });

  it("resolves a relative sandbox_url against the provisioner", async () => {
    const relative: typeof fetch = async () =>
      Response.json({ sandbox_id: "a", sandbox_url: "/sandboxes/a", status: "Running" });
    const b = new HttpProvisionerBackend({ url: "http://prov.test:9", fetch: relative });
    expect(await b.create("a", "t", "u")).toEqual({ url: "http://prov.test:9/sandboxes/a" });
  });
});
