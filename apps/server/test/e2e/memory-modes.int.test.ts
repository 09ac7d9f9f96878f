/**
 * Memory's other modes through the real server and the scripted endpoint:
 *
 * 1. shutdown: a conversation queued with a long debounce is extracted while
 *    the server closes (the queue flushes before the store closes), and the
 *    fact is there when a new server opens the same data dir;
 * 2. tool mode (DeerFlow's experimental `mode: tool`): the model gets
 *    memory_search / memory_add / memory_update / memory_delete, and a
 *    memory_add call stores a fact for the run's user;
 * 3. `enabled: false`: stored memory is neither injected nor extended.
 */
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import { afterEach, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";
import { startServer } from "../support/server-harness.js";

// The extraction call: its system prompt is the memory manager's (tool mode also offers a memory_update tool).
const isExtraction = (r: RecordedRequest): boolean =>
  String(r.messages[0]?.["content"] ?? "").startsWith("You are the memory manager");

const FACT = {
  newFacts: [
    {
      content: "Keeps bees",
      category: "context",
      confidence: 0.9,
      scope: "user",
      durability: "durable",
      authority: "descriptive",
    },
  ],
};

function script(request: RecordedRequest): ScriptStep {
  if (isExtraction(request))
    return request.toolNames.includes("memory_update")
      ? { toolCalls: [{ name: "memory_update", args: FACT, id: "call_memory" }] }
      : { text: JSON.stringify(FACT) };
  if (request.toolNames.includes("memory_add") && !request.messages.some((m) => m["role"] === "tool"))
    return {
      toolCalls: [{ name: "memory_add", args: { content: "Likes green tea", category: "preference" }, id: "c1" }],
    };
  return { text: "Noted." };
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function converse(s: ScriptedServer, text: string): Promise<void> {
  const thread = await s.t.client.threads.create();
  await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
    input: { messages: [{ type: "human", content: text }] },
  });
}

describe("memory modes through the server", () => {
  it("flushes the update queue at shutdown, before the store closes", async () => {
    server = await startScriptedServer(script, "memory:\n  model_name: main\n  debounce_seconds: 3600\n");
    const s = server;
    await converse(s, "I keep bees on my roof.");
    // Debounced for an hour: nothing extracted yet.
    expect(s.openai.requests.filter(isExtraction)).toHaveLength(0);
    await s.t.server.close({ drain: false });
    expect(s.openai.requests.filter(isExtraction)).toHaveLength(1);

    const reopened = await startServer(s.dir, "sandbox:\n  allow_host_bash: true\nstorage:\n  data_dir: ./data\n");
    try {
      const res = await fetch(`${reopened.url}/api/memory`);
      const doc = (await res.json()) as { facts: { content: string }[] };
      expect(doc.facts.map((f) => f.content)).toEqual(["Keeps bees"]);
    } finally {
      await reopened.server.close({ drain: false });
    }
  });

  it("tool mode: the model gets the memory tools and memory_add stores a fact for the run's user", async () => {
    server = await startScriptedServer(script, "memory:\n  mode: tool\n");
    const s = server;
    await converse(s, "Remember that I like green tea.");
    const first = s.openai.requests[0];
    expect(first?.toolNames).toEqual(
      expect.arrayContaining(["memory_search", "memory_add", "memory_update", "memory_delete"]),
    );
    const toolResult = s.openai.requests[1]?.messages.find((m) => m["role"] === "tool");
    expect(String(toolResult?.["content"])).toContain('"content":"Likes green tea"');
    const doc = (await (await fetch(`${s.t.url}/api/memory`)).json()) as {
      facts: { content: string; category: string }[];
    };
    expect(doc.facts).toMatchObject([{ content: "Likes green tea", category: "preference" }]);
    // Tool mode does not extract after runs.
    expect(s.openai.requests.filter(isExtraction)).toHaveLength(0);
  });

  it("enabled: false: no injection and no extraction; the routes still answer", async () => {
    server = await startScriptedServer(
      script,
      "memory:\n  enabled: false\n  model_name: main\n  debounce_seconds: 0\n",
    );
    const s = server;
    const added = await fetch(`${s.t.url}/api/memory/facts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "Keeps bees", confidence: 0.9 }),
    });
    expect(added.status).toBe(200);
    await converse(s, "I keep bees on my roof.");
    await s.t.server.close({ drain: false });
    expect(s.openai.requests.filter(isExtraction)).toHaveLength(0);
    expect(s.openai.requests.map((r) => JSON.stringify(r.messages)).join("")).not.toContain("<memory>");
  });
});
