import type { FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SandboxError } from "../../../src/errors.js";
import { RemoteSandbox } from "../../../src/remote/client/remote-sandbox.js";
import { MemorySandboxProvider, type MemorySandbox } from "../../support/remote/memory-sandbox.js";
import { createSandboxServer } from "../../../src/remote/server/create-sandbox-server.js";

describe("createSandboxServer (over a loopback socket)", () => {
  let app: FastifyInstance;
  let hosted: MemorySandbox;
  let base: string;
  let seen: AbortSignal | undefined;

  beforeEach(async () => {
    const provider = new MemorySandboxProvider();
    app = createSandboxServer({ provider, token: "k" });
    base = await app.listen({ host: "127.0.0.1", port: 0 });
    await fetch(`${base}/api/sandboxes`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: JSON.stringify({ sandbox_id: "sb", thread_id: "t" }),
    });
    hosted = provider.get("mem:default.default:t") as MemorySandbox;
    seen = undefined;
    hosted.executeHandler = (_command, options) =>
      new Promise((_, reject) => {
        seen = options.signal;
        options.signal?.addEventListener("abort", () => reject(new SandboxError("ABORTED", "aborted")));
      });
  });

  afterEach(async () => {
    const closing = app.close();
    // undici reconnects after an aborted request; that fresh connection is not "idle" to Node and would hold close() for seconds.
    app.server.closeAllConnections();
    await closing;
  });

  it("aborts the command when the client disconnects", async () => {
    const controller = new AbortController();
    const request = fetch(`${base}/sandboxes/sb/v1/shell/exec`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: JSON.stringify({ command: "sleep 100" }),
      signal: controller.signal,
    }).catch((err: unknown) => err);
    await vi.waitFor(() => expect(seen).toBeDefined());
    expect(seen?.aborted).toBe(false);
    controller.abort();
    await request;
    await vi.waitFor(() => expect(seen?.aborted).toBe(true));
  });

  it("aborts the command when a RemoteSandbox caller aborts", async () => {
    const remote = new RemoteSandbox({ id: "sb", url: `${base}/sandboxes/sb`, apiKey: "k" });
    const controller = new AbortController();
    const running = remote.execute("sleep 100", { signal: controller.signal });
    await vi.waitFor(() => expect(seen).toBeDefined());
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: "ABORTED" });
    await vi.waitFor(() => expect(seen?.aborted).toBe(true));
  });

  it("aborts running commands when the server closes", async () => {
    const remote = new RemoteSandbox({ id: "sb", url: `${base}/sandboxes/sb`, apiKey: "k" });
    const running = remote.execute("sleep 100").catch((err: unknown) => err);
    await vi.waitFor(() => expect(seen).toBeDefined());
    await app.close();
    expect(seen?.aborted).toBe(true);
    expect(await running).toMatchObject({ code: expect.stringMatching(/ABORTED|UNAVAILABLE/) });
  });

  it("does not abort a command whose answer was sent", async () => {
    hosted.executeHandler = async (_command, options) => {
      seen = options.signal;
      return { stdout: "", stderr: "", exitCode: 0, signal: null, timedOut: false, truncated: false };
    };
    const remote = new RemoteSandbox({ id: "sb", url: `${base}/sandboxes/sb`, apiKey: "k" });
    await remote.execute("true");
    expect(seen?.aborted).toBe(false);
  });
});
