/**
 * Memory (DeerFlow §4) through the real server, the scripted OpenAI-compatible
 * endpoint and the LangGraph SDK over a socket, with two API keys mapped to
 * two users (alice, bob):
 *
 * 1. after alice's conversation the endpoint answers the extraction call with
 *    DeerFlow's JSON; her next conversation's first model request carries the
 *    fact as user-role `<memory>` data (never in a system message);
 * 2. a fact added through POST /api/memory/facts reaches her next run;
 * 3. bob never sees alice's memory: not in his runs, not through the routes;
 * 4. the routes answer with DeerFlow's codes and texts, bodies are validated,
 *    and export → import round-trips.
 */
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { messageText } from "../support/request-text.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";
import { eventually } from "../support/server-harness.js";

const ALICE = "alice-key-0123456789";
const BOB = "bob-key-0123456789";

function isExtraction(r: RecordedRequest): boolean {
  const format = r.body["response_format"] as { json_schema?: { name?: string } } | undefined;
  return format?.json_schema?.name === "memory_update" || r.toolNames.includes("memory_update");
}

const EXTRACTED = {
  user: {
    workContext: { summary: "Writes Rust compilers.", shouldUpdate: true, scope: "user", authority: "descriptive" },
  },
  newFacts: [
    {
      content: "Lives in Lisbon",
      category: "context",
      confidence: 0.92,
      scope: "user",
      durability: "durable",
      authority: "descriptive",
    },
    {
      content: "Is debugging today",
      category: "context",
      confidence: 0.9,
      scope: "conversation",
      durability: "transient",
      authority: "descriptive",
    },
  ],
};

function script(request: RecordedRequest): ScriptStep {
  if (!isExtraction(request)) return { text: "Noted." };
  const prompt = request.messages.map(messageText).join("\n");
  const answer = prompt.includes("Lisbon") ? EXTRACTED : { newFacts: [] };
  if (request.toolNames.includes("memory_update"))
    return { toolCalls: [{ name: "memory_update", args: answer, id: "call_memory" }] };
  return { text: JSON.stringify(answer) };
}

describe("memory through the server", () => {
  let server: ScriptedServer;
  let alice: Client;
  let bob: Client;
  let url: string;

  beforeAll(async () => {
    server = await startScriptedServer(
      script,
      `server:
  api_keys:
    - { key: ${ALICE}, user_id: alice }
    - { key: ${BOB}, user_id: bob }
memory:
  model_name: main
  debounce_seconds: 0
`,
    );
    url = server.t.url;
    alice = new Client({ apiUrl: `${url}/api`, apiKey: ALICE });
    bob = new Client({ apiUrl: `${url}/api`, apiKey: BOB });
  }, 60_000);

  afterAll(() => server?.close());

  const api = async (key: string, method: string, route: string, body?: unknown) => {
    const res = await fetch(`${url}/api${route}`, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { detail?: unknown } };
  };
  const facts = async (key: string) =>
    ((await api(key, "GET", "/memory")).body["facts"] as { id: string; content: string }[]).map((f) => f);

  /** Runs one conversation; returns the first agent (non-extraction) request it caused. */
  async function converse(client: Client, text: string): Promise<RecordedRequest> {
    const before = server.openai.requests.length;
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: text }] },
    });
    const request = server.openai.requests.slice(before).find((r) => !isExtraction(r));
    if (request === undefined) throw new Error("the agent made no model call");
    return request;
  }

  const memoryMessages = (r: RecordedRequest) => r.messages.filter((m) => messageText(m).includes("<memory>"));

  it("extracts a fact after a conversation and injects it, as user-role data, into the next one", async () => {
    const first = await converse(alice, "Hi! I live in Lisbon and write Rust compilers.");
    expect(memoryMessages(first)).toEqual([]);
    const stored = await eventually(async () => {
      const list = await facts(ALICE);
      return list.length > 0 ? list : undefined;
    });
    // The write gate kept only the user-scoped, durable fact.
    expect(stored.map((f) => f.content)).toEqual(["Lives in Lisbon"]);
    const extraction = server.openai.requests.find(isExtraction);
    expect(extraction?.messages.map(messageText).join("\n")).toContain("I live in Lisbon");

    const next = await converse(alice, "Where should I eat tonight?");
    const injected = memoryMessages(next);
    expect(injected).toHaveLength(1);
    expect(injected[0]?.["role"]).toBe("user");
    expect(messageText(injected[0] ?? {})).toContain("- [context | 0.92] Lives in Lisbon");
    expect(messageText(injected[0] ?? {})).toContain("- Work: Writes Rust compilers.");
    expect(next.messages.filter((m) => m["role"] === "system").some((m) => messageText(m).includes("Lisbon"))).toBe(
      false,
    );
    // The user's own message follows the memory.
    expect(messageText(next.messages.at(-1) ?? {})).toBe("Where should I eat tonight?");
  });

  it("a fact added through POST /api/memory/facts reaches the next run", async () => {
    const added = await api(ALICE, "POST", "/memory/facts", {
      content: "Prefers metric units",
      category: "preference",
      confidence: 0.95,
    });
    expect(added.status).toBe(200);
    expect((added.body["facts"] as { content: string }[]).map((f) => f.content)).toContain("Prefers metric units");
    const next = await converse(alice, "How far is Porto?");
    expect(messageText(memoryMessages(next)[0] ?? {})).toContain("- [preference | 0.95] Prefers metric units");
  });

  it("bob never sees alice's memory, in runs or through the routes", async () => {
    const run = await converse(bob, "What do you know about me?");
    expect(run.messages.map(messageText).join("\n")).not.toContain("Lisbon");
    expect(memoryMessages(run)).toEqual([]);
    expect(await facts(BOB)).toEqual([]);
    const aliceFact = (await facts(ALICE))[0];
    const del = await api(BOB, "DELETE", `/memory/facts/${aliceFact?.id}`);
    expect(del.status).toBe(404);
    expect(del.body.detail).toBe(`Memory fact '${aliceFact?.id}' not found.`);
    const patch = await api(BOB, "PATCH", `/memory/facts/${aliceFact?.id}`, { content: "hijacked" });
    expect(patch.status).toBe(404);
    expect((await api(BOB, "DELETE", "/memory")).status).toBe(200);
    expect((await facts(ALICE)).length).toBeGreaterThan(0);
    // A body never chooses the user.
    const forged = await api(BOB, "POST", "/memory/facts", { content: "x", user_id: "alice" });
    expect(forged.status).toBe(422);
  });

  it("answers DeerFlow's codes and texts, and export → import round-trips", async () => {
    const dup = await api(ALICE, "POST", "/memory/facts", { content: "  prefers METRIC units " });
    expect(dup).toEqual({ status: 409, body: { detail: "A fact with the same content already exists." } });
    expect(await api(ALICE, "POST", "/memory/facts", { content: "x", confidence: 2 })).toEqual({
      status: 400,
      body: { detail: "Invalid confidence value; must be between 0 and 1." },
    });
    expect(await api(ALICE, "POST", "/memory/facts", { content: "   " })).toEqual({
      status: 400,
      body: { detail: "Memory fact content cannot be empty." },
    });
    expect((await api(ALICE, "POST", "/memory/facts", { content: "" })).status).toBe(422);
    expect((await api(ALICE, "POST", "/memory/facts", { content: "x", category: "gossip" })).status).toBe(422);

    const list = await facts(ALICE);
    const metric = list.find((f) => f.content === "Prefers metric units");
    const patched = await api(ALICE, "PATCH", `/memory/facts/${metric?.id}`, { confidence: 0.8 });
    expect(
      (patched.body["facts"] as { id: string; confidence: number; category: string }[]).find(
        (f) => f.id === metric?.id,
      ),
    ).toMatchObject({ confidence: 0.8, category: "preference" });

    const exported = await api(ALICE, "GET", "/memory/export");
    expect(exported.body).toMatchObject({
      version: "1.0",
      user: { workContext: { summary: "Writes Rust compilers." } },
    });
    const lisbon = (exported.body["facts"] as { content: string; source: unknown }[]).find(
      (f) => f.content === "Lives in Lisbon",
    );
    expect(typeof lisbon?.source).toBe("string");

    expect((await api(ALICE, "DELETE", "/memory")).body["facts"]).toEqual([]);
    const imported = await api(ALICE, "POST", "/memory/import", exported.body);
    expect(imported.status).toBe(200);
    expect((imported.body["facts"] as unknown[]).length).toBe((exported.body["facts"] as unknown[]).length);
    expect(imported.body["user"]).toEqual(exported.body["user"]);

    const config = await api(ALICE, "GET", "/memory/config");
    expect(config.body).toMatchObject({
      enabled: true,
      mode: "middleware",
      injection_enabled: true,
      manager_class: "deermem",
    });
    expect((config.body["backend_config"] as Record<string, unknown>)["max_facts"]).toBe(100);
    const status = await api(ALICE, "GET", "/memory/status");
    expect(status.body["config"]).toEqual(config.body);
    expect((status.body["data"] as { facts: unknown[] }).facts.length).toBeGreaterThan(0);
    expect((await api(ALICE, "POST", "/memory/reload")).status).toBe(200);
    const missing = await api(ALICE, "DELETE", "/memory/facts/fact_nope");
    expect(missing).toEqual({ status: 404, body: { detail: "Memory fact 'fact_nope' not found." } });
    expect((await fetch(`${url}/api/memory`)).status).toBe(401);
    // Documented in the OpenAPI document like the other routes.
    const openapi = (await (await fetch(`${url}/openapi.json`, { headers: { "x-api-key": ALICE } })).json()) as {
      paths: Record<string, Record<string, { summary?: string; tags?: string[] }>>;
    };
    expect(openapi.paths["/api/memory/facts"]?.["post"]).toMatchObject({ summary: "Add a fact", tags: ["memory"] });
    expect(Object.keys(openapi.paths).filter((p) => p.startsWith("/api/memory"))).toHaveLength(8);
    // Hostile input: a traversal-shaped id is just an unknown fact; an import over 10,000 facts is refused whole.
    const traversal = await api(ALICE, "DELETE", `/memory/facts/${encodeURIComponent("../../etc/passwd")}`);
    expect(traversal.status).toBe(404);
    const before = (await facts(ALICE)).length;
    const huge = await api(ALICE, "POST", "/memory/import", {
      facts: Array.from({ length: 10_001 }, (_, i) => ({
        id: `fact_${i}`,
        content: `f${i}`,
        category: "context",
        confidence: 0.5,
      })),
    });
    expect(huge.status).toBe(422);
    expect((await facts(ALICE)).length).toBe(before);
  });
});
