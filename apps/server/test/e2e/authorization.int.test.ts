/**
 * `authorization:` (DeerFlow's RBAC, issue 17) through the real server, the
 * scripted OpenAI-compatible endpoint and configured keys — `alice` (not
 * admin: role `user`), `root` (admin: role `admin`) and `gina` (role `guest`, set on her key):
 *
 * - the role's denied tool is absent from the model request's tools, and a call
 *   to it (scripted, as a model could hallucinate one) is refused with DeerFlow's text;
 * - a denied route answers 403 `Permission denied: threads:delete`;
 * - `/api/models` lists the role's models; a run asking for a denied model runs
 *   with the first allowed one;
 * - a body claiming another role is refused.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { RecordedRequest, ScriptedOpenAI, ScriptStep } from "@deerflow/agent/testing";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { firstUserText } from "../support/request-text.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";
import type { TestServer } from "../support/server-harness.js";

const KEYS = { alice: "alice-key-0123456789", root: "root-key-0123456789", gina: "gina-key-0123456789" } as const;
type Who = keyof typeof KEYS;
type StateMessage = { type: string; content: unknown; name?: string; status?: string };
const DENIED =
  "Guardrail denied: tool 'glob' was blocked (authz.denied). Reason: role 'user' is denied 'glob' on resource 'tool'. Choose an alternative approach.";

/** "glob <tag>": calls glob once, then answers; anything else answers at once. */
function script(request: RecordedRequest): ScriptStep {
  const results = request.messages.filter((m) => m["role"] === "tool").length;
  if (firstUserText(request).startsWith("glob") && results === 0)
    return { toolCalls: [{ name: "glob", args: { pattern: "*", path: "/mnt/user-data" }, id: "call_glob" }] };
  return { text: "Done." };
}

describe("authorization: through the server", () => {
  let s: ScriptedServer;
  let openai: ScriptedOpenAI;
  let t: TestServer;
  let dir: string;
  const sdk = (who: Who) => new Client({ apiUrl: `${t.url}/api`, apiKey: KEYS[who] });
  const http = async (who: Who, method: string, route: string, body?: unknown) => {
    const res = await fetch(`${t.url}/api${route}`, {
      method,
      headers: { "x-api-key": KEYS[who], ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
  };

  beforeAll(async () => {
    s = await startScriptedServer(
      script,
      `server:
  api_keys:
    - { key: ${KEYS.alice}, user_id: alice }
    - { key: ${KEYS.root}, user_id: root, admin: true }
    - { key: ${KEYS.gina}, user_id: gina, role: guest }
authorization:
  enabled: true
  provider:
    use: rbac
    config:
      roles:
        admin: {}
        user:
          tools: { deny: [glob] }
          routes: { deny: ["threads:delete"] }
          models: { allow: [main] }
        guest:
          routes: { allow: ["threads:read"] }
`,
      { models: ["main", "big"] },
    );
    ({ openai, t, dir } = s);
  }, 60_000);

  afterAll(() => s?.close());

  /** Runs a prompt on a new thread of `who`; returns the thread, its tool results and the endpoint's requests. */
  async function runAs(who: Who, prompt: string, context?: Record<string, unknown>) {
    const client = sdk(who);
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: prompt }] },
      ...(context === undefined ? {} : { context }),
    });
    const state = await client.threads.getState<{ messages: StateMessage[] }>(thread.thread_id);
    const tools = (state.values.messages ?? []).filter((m) => m.type === "tool");
    return { threadId: thread.thread_id, tools, requests: openai.requests.filter((r) => firstUserText(r) === prompt) };
  }

  it("hides the role's denied tool from the model and refuses a call to it", async () => {
    const alice = await runAs("alice", "glob alice");
    expect(alice.requests.length).toBeGreaterThan(0);
    for (const r of alice.requests) {
      expect(r.toolNames).not.toContain("glob");
      expect(r.toolNames).toContain("ls");
    }
    expect(alice.tools).toEqual([expect.objectContaining({ name: "glob", content: DENIED, status: "error" })]);
    const root = await runAs("root", "glob root");
    expect(root.requests[0]?.toolNames).toContain("glob");
    expect(root.tools[0]?.status).toBe("success");
  });

  it("has a permission for every thread and run route the server registers", () => {
    expect(t.logs.messages().filter((m) => m.includes("route without a permission"))).toEqual([]);
  });

  it("403s a route the role may not use, with DeerFlow's detail; the admin may", async () => {
    const thread = await sdk("alice").threads.create();
    const denied = await http("alice", "DELETE", `/threads/${thread.thread_id}`);
    expect(denied).toEqual({ status: 403, body: { detail: "Permission denied: threads:delete" } });
    expect((await http("alice", "GET", `/threads/${thread.thread_id}`)).status).toBe(200);
    expect((await http("root", "DELETE", `/threads/${thread.thread_id}`)).status).toBe(204);
  });

  it("lists the role's models and runs a denied model's request on the first allowed one", async () => {
    expect((await http("alice", "GET", "/models")).body).toMatchObject({ models: [{ name: "main" }] });
    expect(((await http("alice", "GET", "/models")).body as { models: unknown[] }).models).toHaveLength(1);
    expect((await http("alice", "GET", "/models/big")).status).toBe(403);
    expect(((await http("root", "GET", "/models")).body as { models: unknown[] }).models).toHaveLength(2);
    const alice = await runAs("alice", "big model alice", { model_name: "big" });
    expect(alice.requests.map((r) => r.model)).toEqual(["scripted-main"]);
    expect(t.logs.messages()).toContain("Model 'big' is not authorized for the current role; fallback to 'main'.");
    const root = await runAs("root", "big model root", { model_name: "big" });
    expect(root.requests.map((r) => r.model)).toEqual(["scripted-big"]);
  });

  it("keeps admin-only routes admin-only, whatever the role's route rules", async () => {
    // `user` has no rule against MCP management; the route's own admin check still holds.
    expect(await http("alice", "GET", "/mcp/config")).toEqual({
      status: 403,
      body: { detail: "Admin privileges required to manage MCP configuration." },
    });
    expect((await http("root", "GET", "/mcp/config")).status).toBe(200);
  });

  it("gives a key its configured role", async () => {
    expect(await http("gina", "POST", "/threads", {})).toEqual({
      status: 403,
      body: { detail: "Permission denied: threads:write" },
    });
    expect((await http("gina", "POST", "/threads/search", {})).status).toBe(200);
  });

  it("runs a custom agent whose model the role may not use on the first allowed one", async () => {
    const agentDir = path.join(dir, "data", "users", "alice", "agents", "bigbot");
    await fs.mkdir(agentDir, { recursive: true });
    await fs.writeFile(path.join(agentDir, "config.yaml"), "name: bigbot\ndescription: Runs on big.\nmodel: big\n");
    const alice = await runAs("alice", "agent alice", { agent_name: "bigbot" });
    expect(alice.requests.map((r) => r.model)).toEqual(["scripted-main"]);
  });

  it("refuses a run body claiming another role", async () => {
    const res = await http("alice", "POST", "/runs/wait", {
      assistant_id: LEAD_AGENT_ASSISTANT_ID,
      input: { messages: [{ type: "human", content: "hi" }] },
      config: { configurable: { user_role: "admin" } },
    });
    expect(res.status).toBe(403);
    expect((res.body as { detail: string }).detail).toMatch(/names another role/);
  });
});
