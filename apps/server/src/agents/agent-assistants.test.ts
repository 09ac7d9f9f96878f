import { agentConfigOf } from "@deerflow/agent";
import { MemoryAssistantStore } from "@deerflow/runtime";
import { describe, expect, it } from "vitest";
import { AgentAssistants, uuidV5 } from "./agent-assistants.js";

describe("uuidV5", () => {
  it("matches RFC 9562's example (DNS namespace, www.example.com)", () => {
    expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe(
      "2ed6657d-e927-568b-95e1-2665a8aea6a2",
    );
  });
});

describe("AgentAssistants", () => {
  it("creates one assistant per user's agent, updates its description, deletes it", async () => {
    const store = new MemoryAssistantStore();
    const sync = new AgentAssistants({ store, graphId: "lead_agent" });
    await sync.apply({ kind: "created", userId: "alice", config: agentConfigOf("pirate", { description: "Arr" }) });
    await sync.apply({ kind: "created", userId: "bob", config: agentConfigOf("pirate", {}) });
    const id = sync.assistantIdOf("alice", "pirate");
    expect(id).not.toBe(sync.assistantIdOf("bob", "pirate"));
    expect(await store.get(id, { owner: "alice" })).toMatchObject({
      graphId: "lead_agent",
      owner: "alice",
      name: "pirate",
      description: "Arr",
      context: { agent_name: "pirate" },
      metadata: { owner: "alice", custom_agent: "pirate" },
      version: 1,
    });
    expect(await store.get(id, { owner: "bob" })).toBeUndefined();

    // A change that does not touch the assistant writes no version; a new description does.
    await sync.apply({ kind: "updated", userId: "alice", config: agentConfigOf("pirate", { description: "Arr" }) });
    expect((await store.get(id, { owner: "alice" }))?.version).toBe(1);
    await sync.apply({ kind: "updated", userId: "alice", config: agentConfigOf("pirate", { description: "Ahoy" }) });
    expect(await store.get(id, { owner: "alice" })).toMatchObject({ version: 2, description: "Ahoy" });

    await sync.apply({ kind: "deleted", userId: "alice", config: agentConfigOf("pirate", {}) });
    expect(await store.get(id, { owner: "alice" })).toBeUndefined();
    await sync.apply({ kind: "deleted", userId: "alice", config: agentConfigOf("pirate", {}) }); // already gone: fine
    expect(await store.get(sync.assistantIdOf("bob", "pirate"), { owner: "bob" })).toBeDefined();
  });

  it("recreates an assistant deleted through the SDK on the agent's next change", async () => {
    const store = new MemoryAssistantStore();
    const sync = new AgentAssistants({ store, graphId: "lead_agent" });
    await sync.upsert("alice", agentConfigOf("x", {}));
    await store.delete(sync.assistantIdOf("alice", "x"), { owner: "alice" });
    await sync.upsert("alice", agentConfigOf("x", { description: "back" }));
    expect((await store.get(sync.assistantIdOf("alice", "x"), { owner: "alice" }))?.description).toBe("back");
  });
});
