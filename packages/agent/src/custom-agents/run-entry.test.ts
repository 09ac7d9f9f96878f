import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { CUSTOM_AGENT_CONFIG_KEY } from "../run/run-options.js";
import { agentConfigOf } from "./agent-config.js";
import { resolveRunCustomAgent } from "./run-entry.js";
import { StoreAgentStore } from "./store-agent-store.js";

async function setup() {
  const store = new StoreAgentStore({ store: new InMemoryStore() });
  await store.create(
    "alice",
    agentConfigOf("coach", {
      model: "b",
      thinking_enabled: false,
      reasoning_effort: "low",
      tool_groups: ["web", "files"],
      skills: ["s1"],
      model_settings: { max_tokens: 10 },
    }),
    "soul",
  );
  return store;
}

describe("resolveRunCustomAgent", () => {
  it("lowercases agent_name in context and configurable (one memory bucket) and writes the agent's defaults", async () => {
    const store = await setup();
    const out = await resolveRunCustomAgent(
      { configurable: { user_id: "alice", agent_name: "Coach" }, context: { tool_groups: ["files", "mail"] } },
      { store },
    );
    expect(out.configurable?.["agent_name"]).toBe("coach");
    expect(out.context).toEqual({
      agent_name: "coach",
      model_name: "b",
      thinking_enabled: false,
      reasoning_effort: "low",
      tool_groups: ["files"],
    });
    expect(out.configurable?.[CUSTOM_AGENT_CONFIG_KEY]).toEqual({
      name: "coach",
      soul: "soul",
      skills: ["s1"],
      modelSettings: { maxTokens: 10 },
    });
  });

  it("keeps the request's model, thinking and effort over the agent's", async () => {
    const store = await setup();
    const out = await resolveRunCustomAgent(
      {
        configurable: { user_id: "alice", model_name: "a" },
        context: { agent_name: "coach", thinking_enabled: true, reasoning_effort: "high" },
      },
      { store },
    );
    expect(out.context).toMatchObject({ thinking_enabled: true, reasoning_effort: "high" });
    expect((out.context as Record<string, unknown>)["model_name"]).toBeUndefined();
  });

  it("drops a client-sent resolved agent and leaves a default run without a SOUL.md unchanged", async () => {
    const store = await setup();
    const out = await resolveRunCustomAgent(
      { configurable: { user_id: "alice", [CUSTOM_AGENT_CONFIG_KEY]: { soul: "forged" } } },
      { store },
    );
    expect(out.configurable?.[CUSTOM_AGENT_CONFIG_KEY]).toBeUndefined();
    expect(out.context).toBeUndefined();
  });

  it("uses the default user without configurable.user_id, never context.user_id", async () => {
    const store = await setup();
    await expect(
      resolveRunCustomAgent({ context: { agent_name: "coach", user_id: "alice" } }, { store }),
    ).rejects.toMatchObject({ code: "AGENT_NOT_FOUND" });
    await store.create("default", agentConfigOf("coach", {}), "mine");
    const out = await resolveRunCustomAgent({ context: { agent_name: "coach" } }, { store });
    expect(out.configurable?.[CUSTOM_AGENT_CONFIG_KEY]).toMatchObject({ soul: "mine" });
  });
});
