import fs from "node:fs/promises";
import path from "node:path";
import type { SandboxProvider } from "@deerflow/sandbox";
import { SubagentRegistry } from "@deerflow/subagents";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { createLeadAgent, INTERRUPTED_TOOL_CALL_TEXT, staticModels, type LeadAgentOptions } from "./index.js";
import { hangingTool, localProvider, memorySkills, publicSkill } from "../test/support/fixtures.js";

const config = (threadId: string, configurable: Record<string, unknown> = {}) => ({
  configurable: { ...configurable, thread_id: threadId },
});

async function run(options: LeadAgentOptions, threadId: string, text: string, runConfig: Record<string, unknown> = {}) {
  const agent = await createLeadAgent({ checkpointer: new MemorySaver(), ...options });
  await agent.invoke({ messages: [new HumanMessage(text)] }, config(threadId, runConfig));
  const state = await agent.graph.getState(config(threadId));
  return { agent, state, messages: state.values.messages as BaseMessage[] };
}

/** Text of the system message of the model's n-th call. */
function systemText(model: ReturnType<typeof fakeModel>, call = 0): string {
  const first = (model.calls[call]?.messages as BaseMessage[] | undefined)?.[0];
  return first !== undefined && SystemMessage.isInstance(first) ? first.text : "";
}

const toolMessages = (messages: readonly BaseMessage[]) =>
  messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

describe("lead agent with fakeModel", () => {
  it("adds synthetic results for tool calls left dangling by an interrupted run", async () => {
    const { tool: slow, called: toolStarted } = hangingTool("slow");
    const model = fakeModel()
      .respondWithTools([{ name: "slow", args: {}, id: "call_slow" }])
      .respond(new AIMessage("Recovered."));
    const agent = await createLeadAgent({
      models: staticModels({ fake: model }),
      tools: [slow],
      checkpointer: new MemorySaver(),
    });

    const controller = new AbortController();
    const running = agent.invoke(
      { messages: [new HumanMessage("start")] },
      { ...config("t-dangle"), signal: controller.signal },
    );
    await toolStarted;
    controller.abort();
    await expect(running).rejects.toThrow();

    await agent.invoke({ messages: [new HumanMessage("try again")] }, config("t-dangle"));
    const sent = model.calls[1]?.messages as BaseMessage[];
    const aiIndex = sent.findIndex((m) => AIMessage.isInstance(m) && m.tool_calls?.[0]?.id === "call_slow");
    const synthetic = sent[aiIndex + 1] as ToolMessage;
    expect(ToolMessage.isInstance(synthetic)).toBe(true);
    expect(synthetic).toMatchObject({
      tool_call_id: "call_slow",
      content: INTERRUPTED_TOOL_CALL_TEXT,
      status: "error",
    });
    expect(sent.at(-1)?.content).toBe("try again");
    const stored = (await agent.graph.getState(config("t-dangle"))).values.messages as BaseMessage[];
    expect(stored.at(-1)?.content).toBe("Recovered.");
  });

  it("turns a throwing tool and invalid arguments into error results and keeps going", async () => {
    const boom = tool(
      async () => {
        throw new RangeError("disk on fire");
      },
      { name: "boom", description: "Fails", schema: { type: "object", properties: {} } },
    );
    const add = tool(async ({ a, b }: { a: number; b: number }) => String(a + b), {
      name: "add",
      description: "Adds",
      schema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    });
    const model = fakeModel()
      .respondWithTools([{ name: "boom", args: {}, id: "call_boom" }])
      .respondWithTools([{ name: "add", args: { a: "one" }, id: "call_add" }])
      .respond(new AIMessage("Both tools failed, here is what I know."));
    const { messages } = await run({ models: staticModels({ fake: model }), tools: [boom, add] }, "t-errors", "go");
    const [boomResult, addResult] = toolMessages(messages);
    expect(boomResult).toMatchObject({
      status: "error",
      content:
        "Error: Tool 'boom' failed with RangeError: disk on fire. Continue with available context, or choose an alternative tool.",
    });
    expect(String(addResult?.content)).toMatch(/^Error: Invalid arguments for tool 'add': /);
    expect(addResult?.status).toBe("error");
    for (const m of [boomResult, addResult]) expect(String(m?.content)).not.toMatch(/\n\s+at /);
    expect(messages.at(-1)?.content).toBe("Both tools failed, here is what I know.");
  });

  it("warns a turn that repeats the same tool call, then stops it with loop_capped (DeerFlow's two stages)", async () => {
    let pings = 0;
    const ping = tool(
      async () => {
        pings++;
        return "pong";
      },
      { name: "ping", description: "Ping", schema: { type: "object", properties: { host: { type: "string" } } } },
    );
    const same = { name: "ping", args: { host: "example.org" } };
    const model = fakeModel()
      .respondWithTools([{ ...same, id: "p1" }])
      .respondWithTools([{ ...same, id: "p2" }])
      .respondWithTools([{ ...same, id: "p3" }])
      .respond(new AIMessage("never reached"));
    const { messages } = await run(
      {
        models: staticModels({ fake: model }),
        tools: [ping],
        middleware: { loopDetection: { warnThreshold: 2, hardLimit: 3 } },
      },
      "t-loop",
      "ping forever",
    );
    expect(pings).toBe(2);
    expect(model.callCount).toBe(3);
    expect(String(model.calls[2]?.messages.at(-1)?.content)).toMatch(
      /^\[LOOP DETECTED\] You are repeating the same tool calls\./,
    );
    const last = messages.at(-1) as AIMessage;
    expect(last.tool_calls ?? []).toEqual([]);
    expect(String(last.content)).toContain(
      "[FORCED STOP] Repeated tool calls exceeded the safety limit. Producing final answer with results collected so far.",
    );
  });

  it("presents only existing files under outputs", async () => {
    const provider = await localProvider();
    const model = fakeModel()
      .respondWithTools([
        { name: "present_files", args: { filepaths: ["/mnt/user-data/workspace/notes.md"] }, id: "c1" },
      ])
      .respondWithTools([
        { name: "present_files", args: { filepaths: ["/mnt/user-data/outputs/missing.md"] }, id: "c2" },
      ])
      .respondWithTools([
        { name: "write_file", args: { path: "/mnt/user-data/outputs/report.md", content: "# Report\n" }, id: "c3" },
      ])
      .respondWithTools([
        {
          name: "present_files",
          args: { filepaths: ["/mnt/user-data/outputs/report.md", "/mnt/user-data/outputs/./report.md"] },
          id: "c4",
        },
      ])
      .respond(new AIMessage("Presented."));
    const { state, messages } = await run(
      { models: staticModels({ fake: model }), sandboxProvider: provider },
      "t-present",
      "make a report",
    );
    const results = toolMessages(messages);
    expect(results[0]?.content).toBe(
      "Error: cannot present files: /mnt/user-data/workspace/notes.md: only files under /mnt/user-data/outputs/ can be presented. Nothing was presented.",
    );
    expect(results[1]?.content).toBe(
      "Error: cannot present files: /mnt/user-data/outputs/missing.md: file not found. Nothing was presented.",
    );
    expect(results[3]?.content).toBe("Successfully presented files: /mnt/user-data/outputs/report.md");
    expect(state.values.artifacts).toEqual(["/mnt/user-data/outputs/report.md"]);
    expect(await fs.readFile(path.join(provider.threadPaths("t-present").outputs, "report.md"), "utf8")).toBe(
      "# Report\n",
    );
  });

  it("acquires the thread's sandbox at the first tool call, records it in the state and releases it after the run", async () => {
    const inner = await localProvider();
    const events: string[] = [];
    const provider: SandboxProvider = {
      acquire: async (threadId, userId) => {
        events.push(`acquire ${threadId} ${userId ?? "-"}`);
        return inner.acquire(threadId, userId);
      },
      get: (id) => inner.get(id),
      release: async (id) => void events.push(`release ${id}`),
      shutdown: () => inner.shutdown(),
    };
    const model = fakeModel()
      .respondWithTools([{ name: "ls", args: { path: "/mnt/user-data/workspace" }, id: "c1" }])
      .respond(new AIMessage("Empty."));
    const { state } = await run({ models: staticModels({ fake: model }), sandboxProvider: provider }, "t-sbx", "list", {
      user_id: "alice",
    });
    expect(events).toEqual(["acquire t-sbx alice", "release local:alice:t-sbx"]);
    expect(state.values.sandbox).toEqual({ sandbox_id: "local:alice:t-sbx" });
  });

  it("blocks the files of disabled skills and lists them as disabled in the prompt", async () => {
    const provider = await localProvider();
    const model = fakeModel()
      .respondWithTools([{ name: "read_file", args: { path: "/mnt/skills/public/secret-skill/SKILL.md" }, id: "c1" }])
      .respond(new AIMessage("It is disabled."));
    const skills = memorySkills([publicSkill("deep-research"), publicSkill("secret-skill", false)]);
    const { messages } = await run(
      {
        models: staticModels({ fake: model }),
        sandboxProvider: provider,
        skills: { source: skills, promptMode: "full" },
      },
      "t-skill",
      "use the secret skill",
    );
    expect(toolMessages(messages)[0]?.content).toBe(
      "Error: Skill 'secret-skill' is disabled. Access to its files is blocked. Enable the skill in settings before using it.",
    );
    const system = systemText(model);
    expect(system).toContain("<location>/mnt/skills/public/deep-research/SKILL.md</location>");
    expect(system).toMatch(/<disabled_skills>[\s\S]*- secret-skill \(public\)/);
  });

  it("enforces the subagent limit on task calls", async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: "task", args: { description: "one", prompt: "do one", subagent_type: "general-purpose" }, id: "t1" },
        { name: "task", args: { description: "two", prompt: "do two", subagent_type: "general-purpose" }, id: "t2" },
      ])
      .respond(new AIMessage("subagent result"))
      .respond(new AIMessage("Done."));
    const options: LeadAgentOptions = {
      models: staticModels({ fake: model }),
      subagents: { registry: new SubagentRegistry(), maxConcurrent: 1, maxTotal: 6 },
    };
    const { messages } = await run(options, "t-limit", "delegate");
    const delegated = messages.find((m): m is AIMessage => AIMessage.isInstance(m) && (m.tool_calls?.length ?? 0) > 0);
    expect(delegated?.tool_calls?.map((c) => c.id)).toEqual(["t1"]);
    expect(toolMessages(messages).map((m) => m.content)).toEqual(["Task Succeeded. Result: subagent result"]);
    const system = systemText(model);
    expect(system).toContain("MAXIMUM 1 task CALLS PER RESPONSE");
  });

  it("selects the run's model and can turn subagents off per run", async () => {
    const a = fakeModel().respond(new AIMessage("from a"));
    const b = fakeModel().respond(new AIMessage("from b"));
    const agent = await createLeadAgent({
      models: staticModels({ a, b }, "a"),
      subagents: { registry: new SubagentRegistry() },
      checkpointer: new MemorySaver(),
    });
    await agent.invoke(
      { messages: [new HumanMessage("hi")] },
      config("t-opts", { model_name: "b", subagent_enabled: false }),
    );
    expect((await agent.graph.getState(config("t-opts"))).values.messages.at(-1)?.content).toBe("from b");
    expect(a.callCount).toBe(0);
    expect(systemText(b)).toContain("<role>");
    expect(systemText(b)).not.toContain("<subagent_system>");
    await agent.invoke({ messages: [new HumanMessage("hi")] }, config("t-opts-2", { model_name: "unknown" }));
    expect((await agent.graph.getState(config("t-opts-2"))).values.messages.at(-1)?.content).toBe("from a");
    expect(systemText(a)).toContain("<subagent_system>");
  });
});

describe("lead agent clarification with fakeModel", () => {
  const ask = {
    name: "ask_clarification",
    args: { question: "Which environment?", clarification_type: "missing_info", options: ["dev", "prod"] },
  };

  it("asks alone: other tool calls of the same response are dropped", async () => {
    let pings = 0;
    const ping = tool(
      async () => {
        pings++;
        return "pong";
      },
      { name: "ping", description: "Ping", schema: { type: "object", properties: {} } },
    );
    const model = fakeModel()
      .respondWithTools([
        { name: "ping", args: {}, id: "p1" },
        { ...ask, id: "q1" },
      ])
      .respond(new AIMessage("Deploying to prod."));
    const agent = await createLeadAgent({
      models: staticModels({ fake: model }),
      tools: [ping],
      checkpointer: new MemorySaver(),
    });
    await agent.invoke({ messages: [new HumanMessage("deploy")] }, config("t-ask"));
    const paused = await agent.graph.getState(config("t-ask"));
    expect(paused.tasks[0]?.interrupts[0]?.value).toEqual({
      type: "clarification",
      question: "Which environment?",
      clarification_type: "missing_info",
      context: null,
      options: ["dev", "prod"],
      tool_call_id: "q1",
    });
    const asked = (paused.values.messages as BaseMessage[]).at(-1) as AIMessage;
    expect(asked.tool_calls?.map((c) => c.id)).toEqual(["q1"]);
    expect((paused.values.messages as BaseMessage[]).filter((m) => AIMessage.isInstance(m))).toHaveLength(1);

    await agent.invoke(new Command({ resume: { answer: "prod" } }), config("t-ask"));
    const done = (await agent.graph.getState(config("t-ask"))).values.messages as BaseMessage[];
    expect(toolMessages(done).map((m) => m.content)).toEqual(["User's answer: prod"]);
    expect(done.at(-1)?.content).toBe("Deploying to prod.");
    expect(pings).toBe(0);
  });

  it("recovers when a new message is sent instead of resuming", async () => {
    const model = fakeModel()
      .respondWithTools([{ ...ask, id: "q2" }])
      .respond(new AIMessage("OK, dev it is."));
    const agent = await createLeadAgent({ models: staticModels({ fake: model }), checkpointer: new MemorySaver() });
    await agent.invoke({ messages: [new HumanMessage("deploy")] }, config("t-new"));
    await agent.invoke({ messages: [new HumanMessage("use dev")] }, config("t-new"));
    const sent = model.calls[1]?.messages as BaseMessage[];
    const askAt = sent.findIndex((m) => AIMessage.isInstance(m) && m.tool_calls?.[0]?.id === "q2");
    expect(sent[askAt + 1]).toMatchObject({ tool_call_id: "q2", content: INTERRUPTED_TOOL_CALL_TEXT });
    expect((await agent.graph.getState(config("t-new"))).values.messages.at(-1)?.content).toBe("OK, dev it is.");
  });
});
