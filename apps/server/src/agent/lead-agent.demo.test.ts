import fs from "node:fs/promises";
import path from "node:path";
import { createLeadAgent, staticModels, type LeadAgentOptions } from "@deerflow/agent";
import { SubagentRegistry } from "@deerflow/subagents";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_LABEL, DemoChatModel } from "../models/index.js";
import { catalogFor, makeProvider, makeSkillsRoot } from "../../test/support/lead-agent-env.js";
import { tempDirs } from "../../test/support/temp-dir.js";

const tmp = tempDirs();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  await tmp.cleanup();
});

async function setup(): Promise<{ deps: LeadAgentOptions; provider: Awaited<ReturnType<typeof makeProvider>> }> {
  const dir = await tmp.make();
  const { root, extensionsConfigPath } = await makeSkillsRoot(dir);
  const provider = await makeProvider(dir, root);
  cleanups.push(() => provider.shutdown());
  const deps: LeadAgentOptions = {
    models: staticModels({ demo: new DemoChatModel() }),
    sandboxProvider: provider,
    skills: { source: catalogFor(root, extensionsConfigPath), promptMode: "full" },
    subagents: { registry: new SubagentRegistry(), maxConcurrent: 3, maxTotal: 6 },
  };
  return { deps, provider };
}

async function collect(
  stream: AsyncIterable<unknown>,
): Promise<{ custom: Record<string, unknown>[]; messages: [BaseMessage, Record<string, unknown>][] }> {
  const custom: Record<string, unknown>[] = [];
  const messages: [BaseMessage, Record<string, unknown>][] = [];
  for await (const chunk of stream) {
    const [mode, payload] = chunk as [string, unknown];
    if (mode === "custom") custom.push(payload as Record<string, unknown>);
    if (mode === "messages") messages.push(payload as [BaseMessage, Record<string, unknown>]);
  }
  return { custom, messages };
}

describe("lead agent with the demo model", () => {
  it("reads a skill, runs a sandbox command, writes and presents a file, and delegates", async () => {
    const { deps, provider } = await setup();
    const checkpointer = new MemorySaver();
    const agent = await createLeadAgent({ ...deps, checkpointer });
    const request = "Research solar and wind in parallel, run `echo sandbox-ok` and write findings.md";
    const { custom } = await collect(
      await agent.stream(
        { messages: [new HumanMessage(request)] },
        { configurable: { thread_id: "thread-demo" }, streamMode: ["custom", "updates"] },
      ),
    );

    const state = await agent.graph.getState({ configurable: { thread_id: "thread-demo" } });
    const messages = state.values.messages as BaseMessage[];
    const tools = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(tools.map((m) => m.name)).toEqual(["read_file", "bash", "write_file", "present_files", "task", "task"]);
    expect(String(tools[0]?.content)).toContain("# Deep research");
    expect(String(tools[1]?.content)).toContain("sandbox-ok");
    expect(tools[2]?.content).toBe("OK");
    expect(String(tools[4]?.content)).toMatch(/^Task Succeeded\. Result: .*Findings on "solar"/);
    expect(String(tools[5]?.content)).toMatch(/Findings on "wind"/);

    const outputs = provider.threadPaths("thread-demo").outputs;
    expect(await fs.readFile(path.join(outputs, "findings.md"), "utf8")).toContain("# Demo report");
    expect(state.values.artifacts).toEqual(["/mnt/user-data/outputs/findings.md"]);
    expect(state.values.sandbox).toEqual({ sandbox_id: "local:default:thread-demo" });

    const types = custom.map((e) => e["type"]);
    expect(types.filter((t) => t === "task_started")).toHaveLength(2);
    expect(types.filter((t) => t === "task_completed")).toHaveLength(2);

    const final = messages.at(-1) as AIMessage;
    expect(final.tool_calls ?? []).toEqual([]);
    expect(String(final.content)).toContain(DEMO_LABEL);
    expect(String(final.content)).toContain("- Loaded the skill at /mnt/skills/public/deep-research/SKILL.md");
  });

  it("asks for clarification with an interrupt and resumes with Command({ resume })", async () => {
    const { deps } = await setup();
    const agent = await createLeadAgent({ ...deps, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "thread-ask" } };

    const first = agent;
    await collect(await first.stream({ messages: [new HumanMessage("?")] }, { ...config, streamMode: ["updates"] }));
    const paused = await first.graph.getState(config);
    expect(paused.next).toEqual(["tools"]);
    const request = paused.tasks[0]?.interrupts[0]?.value as Record<string, unknown>;
    expect(request).toMatchObject({
      type: "clarification",
      clarification_type: "ambiguous_requirement",
      question: expect.stringContaining("What would you like me to do?"),
    });
    expect(request["options"]).toContain("List the files in my workspace");

    // A new run (as the runtime would start) resumes the thread.
    const second = agent;
    await collect(
      await second.stream(new Command({ resume: "list my workspace" }), { ...config, streamMode: ["updates"] }),
    );
    const done = await second.graph.getState(config);
    expect(done.next).toEqual([]);
    const messages = done.values.messages as BaseMessage[];
    const tools = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(tools.map((m) => [m.name, m.content])).toEqual([
      ["ask_clarification", "User's answer: list my workspace"],
      ["ls", "(empty)"],
    ]);
    expect(String(messages.at(-1)?.content)).toContain("- Listed /mnt/user-data/workspace: it is empty.");
  });

  it("streams partial tokens in messages mode (messages-tuple)", async () => {
    const { deps } = await setup();
    const agent = await createLeadAgent({ ...deps, checkpointer: new MemorySaver() });
    const { messages } = await collect(
      await agent.stream(
        { messages: [new HumanMessage("Tell me what you can do")] },
        { configurable: { thread_id: "thread-stream" }, streamMode: ["messages"] },
      ),
    );
    const fromModel = messages.filter(
      ([m, meta]) => meta["langgraph_node"] === "model_request" && m.getType() === "ai",
    );
    expect(fromModel.length).toBeGreaterThan(10);
    const text = fromModel.map(([m]) => String(m.content)).join("");
    expect(text.startsWith(DEMO_LABEL)).toBe(true);
    expect(new Set(fromModel.map(([m]) => m.id)).size).toBe(1);
  });

  it("behaves the same on a second identical thread (deterministic)", async () => {
    const { deps } = await setup();
    const agent = await createLeadAgent({ ...deps, checkpointer: new MemorySaver() });
    const run = async (threadId: string) => {
      const out = await agent.invoke(
        { messages: [new HumanMessage("list my workspace")] },
        { configurable: { thread_id: threadId } },
      );
      return (out.messages as BaseMessage[]).map((m) => [m.getType(), m.content, (m as AIMessage).tool_calls ?? []]);
    };
    expect(await run("same-a")).toEqual(await run("same-b"));
  });
});
