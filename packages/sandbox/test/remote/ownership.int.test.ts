/**
 * Finding 4 of issue 12: with one shared key, any client listed, read and
 * deleted every other client's sandbox. Here the real service (a separate
 * process, configured through its environment) serves two client keys and an
 * admin key over a socket, and every per-sandbox route is tried across keys.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpProvisionerBackend } from "../../src/remote/client/http-provisioner-backend.js";
import { RemoteSandboxProvider } from "../../src/remote/client/remote-sandbox-provider.js";
import { sandboxIdFor } from "../../src/remote/client/sandbox-id.js";
import { startServerProcess, type ServerProcess } from "../support/remote/server-process.js";
import { codeOf } from "../support/remote/error-code.js";

const KEY_A = "client-a-key-0123456789";
const KEY_B = "client-b-key-0123456789";
const ADMIN_KEY = "admin-key-0123456789abc";
const SECRET = "/mnt/user-data/workspace/secret.txt";

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

function errorCode(answer: Answer): unknown {
  return (answer.body as { error?: { code?: unknown } } | undefined)?.error?.code;
}

describe("sandbox ownership per client key (deerflow-sandbox-server, separate process)", () => {
  let tmp: string;
  let server: ServerProcess;

  async function call(key: string, method: string, route: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${server.url}${route}`, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // a download answers bytes
    }
    return { status: res.status, body: parsed };
  }

  const sandboxIds = async (key: string): Promise<unknown> => {
    const answer = await call(key, "GET", "/api/sandboxes");
    expect(answer.status).toBe(200);
    return (answer.body as { sandboxes: { sandbox_id: string; owner?: string }[] }).sandboxes
      .map((s) => (s.owner === undefined ? s.sandbox_id : `${s.owner}/${s.sandbox_id}`))
      .sort();
  };

  /** Every route that names one sandbox, as another client would call it. */
  const perSandboxRoutes = (id: string): [string, string, unknown?][] => [
    ["GET", `/api/sandboxes/${id}`],
    ["GET", `/api/sandboxes/${id}?owner=client-a`],
    ["GET", `/sandboxes/${id}/v1/sandbox`],
    ["POST", `/sandboxes/${id}/v1/shell/exec`, { command: "cat secret.txt" }],
    ["POST", `/sandboxes/${id}/v1/file/read`, { file: SECRET }],
    ["POST", `/sandboxes/${id}/v1/file/write`, { file: SECRET, content: "overwritten by B" }],
    ["POST", `/sandboxes/${id}/v1/file/write`, { file: SECRET, content: " appended by B", append: true }],
    ["POST", `/sandboxes/${id}/v1/file/list`, { path: "/mnt/user-data/workspace" }],
    ["POST", `/sandboxes/${id}/v1/file/find`, { path: "/mnt/user-data/workspace", glob: "*" }],
    ["POST", `/sandboxes/${id}/v1/file/grep`, { path: "/mnt/user-data/workspace", pattern: "secret" }],
    ["GET", `/sandboxes/${id}/v1/file/download?path=${encodeURIComponent(SECRET)}`],
    ["DELETE", `/api/sandboxes/${id}`],
    ["DELETE", `/api/sandboxes/${id}?owner=client-a`],
  ];

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "remote-owner-"));
    server = await startServerProcess(["--port", "0", "--base-dir", path.join(tmp, "base")], {
      SANDBOX_CLIENT_KEYS: JSON.stringify({ "client-a": KEY_A, "client-b": KEY_B }),
      SANDBOX_ADMIN_KEY: ADMIN_KEY,
    });
  });

  afterAll(async () => {
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  });

  it("lets client A create and use its sandbox", async () => {
    const created = await call(KEY_A, "POST", "/api/sandboxes", {
      sandbox_id: "sb-a",
      thread_id: "t1",
      user_id: "alice",
    });
    expect(created).toMatchObject({
      status: 200,
      body: { sandbox_id: "sb-a", thread_id: "t1", user_id: "alice", status: "Running" },
    });
    expect((created.body as { owner?: string }).owner).toBeUndefined();
    expect(
      (await call(KEY_A, "POST", "/sandboxes/sb-a/v1/file/write", { file: SECRET, content: "A's secret" })).status,
    ).toBe(200);
    const exec = await call(KEY_A, "POST", "/sandboxes/sb-a/v1/shell/exec", { command: "cat secret.txt" });
    expect(exec).toMatchObject({ status: 200, body: { data: { stdout: "A's secret", exit_code: 0 } } });
    expect(await sandboxIds(KEY_A)).toEqual(["sb-a"]);
  });

  it("does not list A's sandbox to client B", async () => {
    expect(await sandboxIds(KEY_B)).toEqual([]);
  });

  it("answers B on every route of A's sandbox exactly as for a sandbox that does not exist", async () => {
    for (const [method, route, body] of perSandboxRoutes("sb-a")) {
      const answer = await call(KEY_B, method, route, body);
      const missing = await call(KEY_B, method, route.replace("sb-a", "sb-none"), body);
      expect({ route: `${method} ${route}`, status: answer.status, code: errorCode(answer) }).toEqual({
        route: `${method} ${route}`,
        status: 404,
        code: "SANDBOX_NOT_FOUND",
      });
      expect(answer.body).toEqual(JSON.parse(JSON.stringify(missing.body).replaceAll("sb-none", "sb-a")));
    }
  });

  it("leaves A's sandbox and file untouched by B's attempts", async () => {
    expect(await sandboxIds(KEY_A)).toEqual(["sb-a"]);
    const read = await call(KEY_A, "POST", "/sandboxes/sb-a/v1/file/read", { file: SECRET });
    expect(read).toMatchObject({ status: 200, body: { data: { content: "A's secret" } } });
  });

  it("gives B its own sandbox when it names A's sandbox id, thread and user", async () => {
    const created = await call(KEY_B, "POST", "/api/sandboxes", {
      sandbox_id: "sb-a",
      thread_id: "t1",
      user_id: "alice",
    });
    expect(created).toMatchObject({ status: 200, body: { sandbox_id: "sb-a", thread_id: "t1", user_id: "alice" } });
    const read = await call(KEY_B, "POST", "/sandboxes/sb-a/v1/file/read", { file: SECRET });
    expect([read.status, errorCode(read)]).toEqual([404, "NOT_FOUND"]);
    const exec = await call(KEY_B, "POST", "/sandboxes/sb-a/v1/shell/exec", {
      command: "ls -A /mnt/user-data/workspace; cat secret.txt",
    });
    expect(exec.body).toMatchObject({ data: { stdout: "", exit_code: 1 } });
    expect(
      (await call(KEY_B, "POST", "/sandboxes/sb-a/v1/file/write", { file: SECRET, content: "B's own" })).status,
    ).toBe(200);
    // Two sandboxes with one wire id, one per owner, each with its own files.
    expect(await sandboxIds(KEY_A)).toEqual(["sb-a"]);
    expect(await sandboxIds(KEY_B)).toEqual(["sb-a"]);
    expect(await call(KEY_A, "POST", "/sandboxes/sb-a/v1/file/read", { file: SECRET })).toMatchObject({
      body: { data: { content: "A's secret" } },
    });
    expect(await call(KEY_B, "POST", "/sandboxes/sb-a/v1/file/read", { file: SECRET })).toMatchObject({
      body: { data: { content: "B's own" } },
    });
  });

  it("shows the admin every owner's sandboxes, and lets it stop one by naming its owner", async () => {
    expect(await sandboxIds(ADMIN_KEY)).toEqual(["client-a/sb-a", "client-b/sb-a"]);
    expect(await call(ADMIN_KEY, "GET", "/api/sandboxes/sb-a?owner=client-a")).toMatchObject({
      status: 200,
      body: { sandbox_id: "sb-a", owner: "client-a", thread_id: "t1" },
    });
    const unnamed = await call(ADMIN_KEY, "GET", "/api/sandboxes/sb-a");
    expect([unnamed.status, errorCode(unnamed)]).toEqual([400, "INVALID_ARGUMENT"]);
    const create = await call(ADMIN_KEY, "POST", "/api/sandboxes", { sandbox_id: "sb-x", thread_id: "t9" });
    expect([create.status, errorCode(create)]).toEqual([403, "PERMISSION_DENIED"]);
    const files = await call(ADMIN_KEY, "POST", "/sandboxes/sb-a/v1/file/read", { file: SECRET });
    expect([files.status, errorCode(files)]).toEqual([404, "SANDBOX_NOT_FOUND"]);
    expect(await call(ADMIN_KEY, "DELETE", "/api/sandboxes/sb-a?owner=client-b")).toMatchObject({
      status: 200,
      body: { sandbox_id: "sb-a", deleted: true },
    });
    expect(await sandboxIds(ADMIN_KEY)).toEqual(["client-a/sb-a"]);
    expect(await sandboxIds(KEY_B)).toEqual([]);
    expect(await call(KEY_A, "POST", "/sandboxes/sb-a/v1/file/read", { file: SECRET })).toMatchObject({
      body: { data: { content: "A's secret" } },
    });
  });

  it("rejects an unknown key on every route", async () => {
    const answer = await call("not-a-key-0123456789", "GET", "/api/sandboxes");
    expect([answer.status, errorCode(answer)]).toEqual([401, "UNAUTHORIZED"]);
  });

  it("keeps RemoteSandboxProviders with different keys apart on the same thread", async () => {
    const providerA = new RemoteSandboxProvider({
      url: server.url,
      apiKey: KEY_A,
      readyIntervalMs: 50,
      idleTimeoutMs: 0,
    });
    const providerB = new RemoteSandboxProvider({
      url: server.url,
      apiKey: KEY_B,
      readyIntervalMs: 50,
      idleTimeoutMs: 0,
    });
    try {
      const a = await providerA.acquire("shared-thread", "bob");
      const b = await providerB.acquire("shared-thread", "bob");
      // The deterministic id is the same on both sides; the sandboxes are not.
      expect(a.id).toBe(sandboxIdFor("shared-thread", "bob"));
      expect(b.id).toBe(a.id);
      await a.writeFile("/mnt/user-data/workspace/plan.md", "A's plan");
      expect(await codeOf(b.readFile("/mnt/user-data/workspace/plan.md"))).toBe("NOT_FOUND");
      expect((await b.grep("/mnt/user-data/workspace", "plan")).matches).toEqual([]);
      expect(await new HttpProvisionerBackend({ url: server.url, apiKey: KEY_B }).list()).toEqual([
        { id: b.id, url: b.url },
      ]);
      await providerB.shutdown();
      // B's shutdown destroyed B's sandbox only.
      expect(await a.readFile("/mnt/user-data/workspace/plan.md")).toBe("A's plan");
      expect(
        (await new HttpProvisionerBackend({ url: server.url, apiKey: KEY_A }).list()).map((s) => s.id).sort(),
      ).toEqual([a.id, "sb-a"].sort());
    } finally {
      await providerA.shutdown();
      await providerB.shutdown();
    }
  });

  it("reports a key the service does not know as CONFIG_INVALID to the provider", async () => {
    const stranger = new RemoteSandboxProvider({
      url: server.url,
      apiKey: "wrong-key-0123456789",
      readyIntervalMs: 50,
      idleTimeoutMs: 0,
    });
    expect(await codeOf(stranger.acquire("t"))).toBe("CONFIG_INVALID");
    await stranger.shutdown();
  });
});
