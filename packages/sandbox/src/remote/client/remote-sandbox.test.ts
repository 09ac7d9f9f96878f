import type { FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSandboxServer } from "../server/create-sandbox-server.js";
import { injectFetch, refusedFetch } from "../../../test/support/remote/inject-fetch.js";
import { MemorySandboxProvider, okResult, type MemorySandbox } from "../../../test/support/remote/memory-sandbox.js";
import { RemoteSandbox } from "./remote-sandbox.js";
import { codeOf } from "../../../test/support/remote/error-code.js";

const KEY = "k";
const URL_ = "http://svc.test/sandboxes/sb1";

describe("RemoteSandbox", () => {
  let provider: MemorySandboxProvider;
  let app: FastifyInstance;
  let hosted: MemorySandbox;
  let remote: RemoteSandbox;
  let requests: string[];

  beforeEach(async () => {
    provider = new MemorySandboxProvider();
    app = createSandboxServer({ provider, token: KEY });
    await app.inject({
      method: "POST",
      url: "/api/sandboxes",
      payload: { sandbox_id: "sb1", thread_id: "t" },
      headers: { "x-api-key": KEY },
    });
    hosted = provider.get("mem:default.default:t") as MemorySandbox;
    requests = [];
    remote = new RemoteSandbox({
      id: "sb1",
      url: URL_,
      apiKey: KEY,
      fetch: injectFetch(app, { onRequest: (r) => requests.push(`${r.method} ${r.url}`) }),
    });
  });

  afterEach(async () => {
    await app.close();
  });

  it("round-trips text files, appends and line ranges", async () => {
    await remote.writeFile("/mnt/user-data/a.txt", "l1\nl2\n");
    await remote.writeFile("/mnt/user-data/a.txt", "l3", { append: true });
    expect(await remote.readFile("/mnt/user-data/a.txt")).toBe("l1\nl2\nl3");
    expect(await remote.readFile("/mnt/user-data/a.txt", { startLine: 2, endLine: 3 })).toBe("l2\nl3");
    expect(await remote.readFile("/mnt/user-data/a.txt", { endLine: 1 })).toBe("l1");
  });

  it("round-trips every byte value", async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    await remote.writeBytes("/mnt/user-data/b.bin", bytes);
    expect(Array.from(await remote.readBytes("/mnt/user-data/b.bin"))).toEqual(Array.from(bytes));
  });

  it("returns the full execute result and sends timeout, cwd and env", async () => {
    hosted.executeHandler = async () => okResult("o", { stderr: "e", exitCode: 3, signal: null, truncated: true });
    const result = await remote.execute("cmd", { timeoutMs: 1234, cwd: "/mnt/user-data/outputs", env: { X: "1" } });
    expect(result).toEqual({ stdout: "o", stderr: "e", exitCode: 3, signal: null, timedOut: false, truncated: true });
    expect(hosted.executions[0]?.options).toMatchObject({
      timeoutMs: 1234,
      cwd: "/mnt/user-data/outputs",
      env: { X: "1" },
    });
  });

  it("lists with directories suffixed by a slash", async () => {
    await remote.writeFile("/mnt/user-data/w/d/f.txt", "");
    expect(await remote.listDir("/mnt/user-data/w")).toEqual(["/mnt/user-data/w/d/", "/mnt/user-data/w/d/f.txt"]);
    expect(await remote.listDir("/mnt/user-data/w", { maxDepth: 1 })).toEqual(["/mnt/user-data/w/d/"]);
  });

  it("globs and greps", async () => {
    await remote.writeFile("/mnt/user-data/w/a.md", "Alpha\nbeta");
    expect(await remote.glob("/mnt/user-data/w", "*.md")).toEqual({
      matches: ["/mnt/user-data/w/a.md"],
      truncated: false,
    });
    expect(await remote.grep("/mnt/user-data/w", "alpha")).toEqual({
      matches: [{ path: "/mnt/user-data/w/a.md", line: 1, text: "Alpha" }],
      truncated: false,
    });
    expect((await remote.grep("/mnt/user-data/w", "alpha", { caseSensitive: true })).matches).toEqual([]);
    expect((await remote.grep("/mnt/user-data/w", "a.", { literal: true })).matches).toEqual([]);
  });

  it.each([
    ["NOT_FOUND", () => remote.readFile("/mnt/user-data/missing")],
    ["PATH_ESCAPE", () => remote.readFile("/mnt/user-data/../x")],
    ["PATH_NOT_ALLOWED", () => remote.readBytes("/etc/passwd")],
    ["READ_ONLY", () => remote.writeFile("/mnt/skills/public/x", "")],
    ["INVALID_ARGUMENT", () => remote.grep("/mnt/user-data", "(")],
    ["INVALID_ARGUMENT", () => remote.execute("env", { env: { "1BAD": "x" } })],
  ])("rebuilds %s from the service's error", async (code, call) => {
    expect(await codeOf(call())).toBe(code);
  });

  it("keeps the virtual path of a rebuilt error", async () => {
    const err = await remote.readFile("/mnt/user-data/missing").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "NOT_FOUND", path: "/mnt/user-data/missing" });
  });

  it("rejects numbers JSON cannot carry without a request", async () => {
    expect(await codeOf(remote.execute("x", { timeoutMs: Number.NaN }))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(remote.readFile("/mnt/user-data/a", { startLine: Number.POSITIVE_INFINITY }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(remote.glob("/mnt/user-data", "*", { maxResults: Number.NaN }))).toBe("INVALID_ARGUMENT");
    expect(requests).toEqual([]);
  });

  it("leaves line-range validation to the sandbox", async () => {
    await remote.writeFile("/mnt/user-data/a", "x");
    const err = await remote.readFile("/mnt/user-data/a", { startLine: 0 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "INVALID_ARGUMENT", message: "start_line must be >= 1" });
  });

  it("reports a wrong API key as CONFIG_INVALID", async () => {
    const wrong = new RemoteSandbox({ id: "sb1", url: URL_, apiKey: "nope", fetch: injectFetch(app) });
    expect(await codeOf(wrong.readFile("/mnt/user-data/a"))).toBe("CONFIG_INVALID");
  });

  it("reports a sandbox the service does not host as UNAVAILABLE", async () => {
    const other = new RemoteSandbox({
      id: "zz",
      url: "http://svc.test/sandboxes/zz",
      apiKey: KEY,
      fetch: injectFetch(app),
    });
    expect(await codeOf(other.readFile("/mnt/user-data/a"))).toBe("UNAVAILABLE");
  });

  it("reports a network failure as UNAVAILABLE", async () => {
    const down = new RemoteSandbox({ id: "sb1", url: URL_, fetch: refusedFetch() });
    const err = await down.execute("ls").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "UNAVAILABLE" });
    expect((err as Error).message).toContain("ECONNREFUSED");
  });

  it("reports a request that outlives its timeout as TIMEOUT", async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    const slow = new RemoteSandbox({ id: "sb1", url: URL_, fetch: hanging, requestTimeoutMs: 20 });
    expect(await codeOf(slow.readFile("/mnt/user-data/a"))).toBe("TIMEOUT");
  });

  it("gives execute requests the command timeout plus the grace period", async () => {
    let seen: AbortSignal | undefined;
    const capture: typeof fetch = async (_input, init) => {
      seen = init?.signal ?? undefined;
      await new Promise((resolve) => setTimeout(resolve, 30));
      return Response.json({
        success: true,
        data: { stdout: "", stderr: "", exit_code: 0, signal: null, timed_out: false, truncated: false },
      });
    };
    const sandbox = new RemoteSandbox({
      id: "sb1",
      url: URL_,
      fetch: capture,
      requestTimeoutMs: 1,
      executeGraceMs: 10_000,
    });
    await sandbox.execute("x", { timeoutMs: 10 });
    expect(seen?.aborted).toBe(false);
  });

  it("reports a caller abort as ABORTED and aborts the request", async () => {
    let requestSignal: AbortSignal | undefined;
    hosted.executeHandler = () => new Promise(() => undefined);
    const controller = new AbortController();
    const fetchImpl = injectFetch(app);
    const sandbox = new RemoteSandbox({
      id: "sb1",
      url: URL_,
      apiKey: KEY,
      fetch: (input, init) => {
        requestSignal = init?.signal ?? undefined;
        return fetchImpl(input, init);
      },
    });
    const running = sandbox.execute("sleep 100", { signal: controller.signal });
    await vi.waitFor(() => expect(hosted.executions).toHaveLength(1));
    controller.abort();
    expect(await codeOf(running)).toBe("ABORTED");
    expect(requestSignal?.aborted).toBe(true);
  });

  it("runs one command at a time, in call order", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    hosted.executeHandler = async (command) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return okResult(command);
    };
    const results = await Promise.all(["a", "b", "c", "d"].map((c) => remote.execute(c)));
    expect(results.map((r) => r.stdout)).toEqual(["a", "b", "c", "d"]);
    expect(hosted.executions.map((e) => e.command)).toEqual(["a", "b", "c", "d"]);
    expect(maxInFlight).toBe(1);
  });

  it("runs file operations one at a time, in call order", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const fetchImpl = injectFetch(app);
    const sandbox = new RemoteSandbox({
      id: "sb1",
      url: URL_,
      apiKey: KEY,
      fetch: async (input, init) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        try {
          return await fetchImpl(input, init);
        } finally {
          inFlight--;
        }
      },
    });
    const path = "/mnt/user-data/order.txt";
    const [, , , text] = await Promise.all([
      sandbox.writeFile(path, "a"),
      sandbox.writeFile(path, "b", { append: true }),
      sandbox.writeFile(path, "c", { append: true }),
      sandbox.readFile(path),
    ]);
    expect(text).toBe("abc");
    expect(maxInFlight).toBe(1);
  });

  it("serves file operations while a command runs", async () => {
    let release!: () => void;
    hosted.executeHandler = () => new Promise((resolve) => (release = () => resolve(okResult("done"))));
    const running = remote.execute("long");
    await vi.waitFor(() => expect(hosted.executions).toHaveLength(1));
    await remote.writeFile("/mnt/user-data/progress", "50%");
    expect(await remote.readFile("/mnt/user-data/progress")).toBe("50%");
    expect(remote.busy).toBe(true);
    release();
    expect((await running).stdout).toBe("done");
    expect(remote.busy).toBe(false);
  });

  it("drops a queued request whose signal aborts", async () => {
    let release!: () => void;
    hosted.executeHandler = () => new Promise((resolve) => (release = () => resolve(okResult("first"))));
    const first = remote.execute("first");
    const controller = new AbortController();
    const second = remote.execute("second", { signal: controller.signal });
    controller.abort();
    expect(await codeOf(second)).toBe("ABORTED");
    await vi.waitFor(() => expect(hosted.executions).toHaveLength(1));
    release();
    await first;
    expect(hosted.executions.map((e) => e.command)).toEqual(["first"]);
  });

  it("refuses every call once closed", async () => {
    remote.close();
    expect(await codeOf(remote.readFile("/mnt/user-data/a"))).toBe("UNAVAILABLE");
    expect(requests).toEqual([]);
  });

  it("answers readiness probes", async () => {
    expect(await remote.ping()).toBe(true);
    const other = new RemoteSandbox({
      id: "zz",
      url: "http://svc.test/sandboxes/zz",
      apiKey: KEY,
      fetch: injectFetch(app),
    });
    expect(await other.ping()).toBe(false);
  });

  it("stops reading a download over 100 MiB", async () => {
    const huge: typeof fetch = async () =>
      new Response("x", { headers: { "content-length": String(200 * 1024 * 1024) } });
    const sandbox = new RemoteSandbox({ id: "sb1", url: URL_, fetch: huge });
    expect(await codeOf(sandbox.readBytes("/mnt/user-data/big"))).toBe("TOO_LARGE");
  });

  it("reports a malformed answer as UNAVAILABLE", async () => {
    const weird: typeof fetch = async () => Response.json({ success: true, data: { stdout: 1 } });
    const sandbox = new RemoteSandbox({ id: "sb1", url: URL_, fetch: weird });
    expect(await codeOf(sandbox.execute("x"))).toBe("UNAVAILABLE");
  });
});
