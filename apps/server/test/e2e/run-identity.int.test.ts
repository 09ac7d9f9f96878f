/**
 * The server over a real socket: a run's user (and so its sandbox folder and
 * its files) is the authenticated caller's — user `default` here, with and
 * without an API key. A run body naming another user in
 * `config.configurable.user_id` or `context.user_id` is refused with 403
 * before anything exists (no run, no `users/<other>` folder); a body naming
 * the caller's own id runs as usual.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { tempDirs } from "../support/temp-dir.js";
import { HOST_BASH_CONFIG, startServer, type TestServer } from "../support/server-harness.js";

const API_KEY = "operator-key-0123456789";
const CONFIG = `${HOST_BASH_CONFIG}skills:
  enabled: false
server:
  api_keys: ["${API_KEY}"]
`;
const REPORT = { messages: [{ role: "user", content: "Write a short report about otters" }] };

const temp = tempDirs();
let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await temp.make("deerflow-identity-");
  server = await startServer(dir, CONFIG);
});

afterAll(async () => {
  await server?.server.close({ drain: false });
  await temp.cleanup();
});

const usersDir = () => path.join(dir, "data", "users");
const outputsOf = (userId: string, threadId: string) =>
  path.join(usersDir(), userId, "threads", threadId, "user-data", "outputs");

async function post(route: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}/api${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${API_KEY}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
}

async function newThread(): Promise<string> {
  return ((await post("/threads", {})).body as { thread_id: string }).thread_id;
}

async function folderUsers(): Promise<string[]> {
  return fs.readdir(usersDir()).catch(() => []);
}

describe("a run's user on the DeerFlow server", () => {
  it.each([
    ["config.configurable.user_id", { config: { configurable: { user_id: "mallory" } } }],
    ["context.user_id", { context: { user_id: "mallory" } }],
  ])("refuses another user in %s with 403: no run, no folder of that user", async (field, claim) => {
    const threadId = await newThread();
    for (const route of [
      `/threads/${threadId}/runs`,
      `/threads/${threadId}/runs/stream`,
      `/threads/${threadId}/runs/wait`,
      "/runs/wait",
    ]) {
      const res = await post(route, { assistant_id: LEAD_AGENT_ASSISTANT_ID, input: REPORT, ...claim });
      expect(res.status).toBe(403);
      expect((res.body as { detail: string }).detail).toContain(field);
    }
    expect(await server.server.manager.list(threadId)).toEqual([]);
    expect(await folderUsers()).not.toContain("mallory");
  });

  it("runs as the caller when the body repeats its own id: the agent's files land in the caller's folder", async () => {
    const threadId = await newThread();
    const res = await post(`/threads/${threadId}/runs/wait`, {
      assistant_id: LEAD_AGENT_ASSISTANT_ID,
      input: REPORT,
      config: { configurable: { user_id: "default" } },
      context: { user_id: "default" },
    });
    expect(res.status).toBe(200);
    expect(await fs.readdir(outputsOf("default", threadId))).toHaveLength(1);
    const [run] = await server.server.manager.list(threadId);
    expect(run?.kwargs.config?.configurable?.["user_id"]).toBe("default");
  });

  it("runs as the caller when the body names no user", async () => {
    const threadId = await newThread();
    expect(
      (await post(`/threads/${threadId}/runs/wait`, { assistant_id: LEAD_AGENT_ASSISTANT_ID, input: REPORT })).status,
    ).toBe(200);
    expect(await fs.readdir(outputsOf("default", threadId))).toHaveLength(1);
    expect(await folderUsers()).toEqual(["default"]);
  });
});
