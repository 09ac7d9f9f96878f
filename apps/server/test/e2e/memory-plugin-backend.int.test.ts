/**
 * `memory.manager_class: "<module>:<export>"` (DeerFlow's dotted class path):
 * the plugin example's `createRemoteMemoryBackend` keeps the users' memory in
 * a remote, mem0-style service (`startHttpMemoryService` of
 * `@deerflow/memory/testing`, on a real socket) instead of the server's store.
 * A fact added through the route lands in the service under the caller's
 * user, reaches that user's next run, and the plugin's secret option is
 * masked in `GET /api/memory/config`.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HttpMemoryBackend } from "@deerflow/memory";
import { startHttpMemoryService, type HttpMemoryService } from "@deerflow/memory/testing";
import type { RecordedRequest } from "@deerflow/agent/testing";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EXAMPLE = path.resolve(HERE, "../../examples/plugin-example/index.js");
const ALICE = "alice-key-0123456789";
const textOf = (m: Record<string, unknown>): string =>
  typeof m["content"] === "string" ? m["content"] : JSON.stringify(m["content"] ?? "");

describe("a memory backend plugin (manager_class)", () => {
  let service: HttpMemoryService;
  let server: ScriptedServer;

  beforeAll(async () => {
    service = await startHttpMemoryService();
    server = await startScriptedServer(
      () => ({ text: "Noted." }),
      `server:
  api_keys:
    - { key: ${ALICE}, user_id: alice }
memory:
  manager_class: "${EXAMPLE}:createRemoteMemoryBackend"
  backend_config:
    base_url: ${service.baseUrl}
    api_key: service-secret-1
    max_facts: 50
`,
    );
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await service?.close();
  });

  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${server.t.url}/api${route}`, {
      method,
      headers: { "x-api-key": ALICE, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("keeps a fact added through the route in the service, under the caller's user, with the plugin's key", async () => {
    const added = await api("POST", "/memory/facts", {
      content: "Grows tomatoes",
      category: "context",
      confidence: 0.9,
    });
    expect(added.status).toBe(200);
    // Read straight from the service, as any other client of it would.
    const remote = new HttpMemoryBackend({ baseUrl: service.baseUrl });
    const doc = await remote.get({ userId: "alice" });
    expect(doc.facts.map((f) => f.content)).toEqual(["Grows tomatoes"]);
    expect(service.authorizations).toContain("Bearer service-secret-1");
  });

  it("injects the service's facts into the user's next run", async () => {
    const client = new Client({ apiUrl: `${server.t.url}/api`, apiKey: ALICE });
    const before = server.openai.requests.length;
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "What should I plant?" }] },
    });
    const request = server.openai.requests.slice(before)[0] as RecordedRequest;
    const memory = request.messages.filter((m) => textOf(m).includes("<memory>"));
    expect(memory).toHaveLength(1);
    expect(memory[0]?.["role"]).toBe("user");
    expect(textOf(memory[0] ?? {})).toContain("Grows tomatoes");
  });

  it("shows the plugin in the config with its secret masked", async () => {
    const config = await api("GET", "/memory/config");
    expect(config.status).toBe(200);
    expect(config.body["manager_class"]).toBe(`${EXAMPLE}:createRemoteMemoryBackend`);
    const backend = config.body["backend_config"] as Record<string, unknown>;
    expect(backend).toMatchObject({ base_url: service.baseUrl, api_key: "***", max_facts: 50 });
    expect(JSON.stringify(config.body)).not.toContain("service-secret-1");
  });
});
