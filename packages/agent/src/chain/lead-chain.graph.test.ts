import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { SubagentRegistry } from "@deerflow/subagents";
import { describe, expect, it } from "vitest";
import { countingProvider } from "../../test/support/fixtures.js";
import { createLeadAgent, staticModels } from "../index.js";

// Where the chain's hooks live: the default chain (sandbox, subagents, uploads, title, token usage,
// plan mode, clarification...) does its per-call and per-run work inside the model node.

const withUsage = (message: AIMessage, input: number, output: number): AIMessage =>
  Object.assign(message, {
    usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output },
  });

describe("lead chain: hooks in the model node", () => {
  it("adds no graph node of its own: one model call is one step that writes the answer, title and usage, and leases no sandbox", async () => {
    const provider = countingProvider();
    const model = fakeModel().respond(withUsage(new AIMessage("Hello!"), 11, 2));
    const agent = await createLeadAgent({
      models: staticModels({ fake: model }),
      sandboxProvider: provider,
      subagents: { registry: new SubagentRegistry() },
      checkpointer: new MemorySaver(),
    });
    // A regression guard for the chain's cost: each before/after hook would be a node every call passes through.
    expect(Object.keys(agent.graph.nodes).sort()).toEqual(["__start__", "model_request", "tools"]);

    const steps: Record<string, unknown>[] = [];
    for await (const chunk of await agent.stream(
      { messages: [new HumanMessage("hi there")] },
      { configurable: { thread_id: "t-one", run_id: "r1" }, streamMode: "updates" },
    ))
      steps.push(chunk as Record<string, unknown>);
    expect(steps.map((s) => Object.keys(s))).toEqual([["model_request"]]);
    const state = (await agent.graph.getState({ configurable: { thread_id: "t-one" } })).values as Record<
      string,
      unknown
    >;
    expect(state["title"]).toBe("hi there");
    // DeerFlow's lazy_init: a run that calls no tool never acquires the thread's sandbox.
    expect(state["sandbox"]).toBeUndefined();
    expect(state["token_usage"]).toMatchObject({
      input_tokens: 11,
      output_tokens: 2,
      total_tokens: 13,
      llm_call_count: 1,
    });
    expect(state["run_token_usage"]).toMatchObject({ run_id: "r1", llm_call_count: 1 });
    expect(provider.log.events).toEqual([]);
  });

  it("runs the after-work in reverse chain order: clarification keeps only the question before the subagent limit counts", async () => {
    const tasks = Array.from({ length: 5 }, (_, i) => ({
      name: "task",
      args: { description: `d${i}`, prompt: "p", subagent_type: "general-purpose" },
      id: `t${i}`,
    }));
    const model = fakeModel().respondWithTools([
      { name: "ask_clarification", args: { question: "Which one?" }, id: "q1" },
      ...tasks,
    ]);
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (_: unknown, msg: string) => warnings.push(msg), error() {} };
    const agent = await createLeadAgent({
      models: staticModels({ fake: model }),
      subagents: { registry: new SubagentRegistry(), maxConcurrent: 2 },
      checkpointer: new MemorySaver(),
      logger,
    });
    const config = { configurable: { thread_id: "t-ask" } };
    await agent.invoke({ messages: [new HumanMessage("do five things")] }, config);
    const snapshot = await agent.graph.getState(config);
    const last = (snapshot.values as { messages: BaseMessage[] }).messages.at(-1) as AIMessage;
    expect(last.tool_calls?.map((c) => c.name)).toEqual(["ask_clarification"]);
    expect(snapshot.tasks[0]?.interrupts[0]?.value).toMatchObject({ type: "clarification", question: "Which one?" });
    // The limit (outside clarification) saw the question alone, so it had no task call to drop.
    expect(warnings).not.toContain("subagent task calls dropped by limit");
  });

  it("announces uploads once: the state keeps the announced message, later calls of the run send it unchanged", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "write_todos", args: { todos: [] }, id: "w1" }])
      .respond(new AIMessage("Done."));
    const agent = await createLeadAgent({ models: staticModels({ fake: model }), checkpointer: new MemorySaver() });
    const files = [{ filename: "notes.txt", size: 2048, path: "/mnt/user-data/uploads/notes.txt" }];
    const config = { configurable: { thread_id: "t-files" } };
    await agent.invoke(
      { messages: [new HumanMessage({ content: "read <b>it</b>", additional_kwargs: { files } })] },
      config,
    );
    const sentUser = (call: number): string =>
      (model.calls[call]?.messages as BaseMessage[]).filter((m) => HumanMessage.isInstance(m)).at(-1)?.text ?? "";
    expect(sentUser(0)).toMatch(/^<current_uploads>[\s\S]*- notes\.txt \(2\.0 KB\)[\s\S]*<\/current_uploads>\n\n/);
    expect(sentUser(1)).toBe(sentUser(0));
    expect(sentUser(0).match(/<current_uploads>/g)).toHaveLength(1);
    const messages = ((await agent.graph.getState(config)).values as { messages: BaseMessage[] }).messages;
    const stored = messages.filter((m) => HumanMessage.isInstance(m));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.text.startsWith("<current_uploads>")).toBe(true);
    expect(stored[0]?.additional_kwargs["original_user_content"]).toBe("read <b>it</b>");
    expect(messages.some((m) => ToolMessage.isInstance(m))).toBe(true);
  });

  it("titles a thread whose first answer failed after the retries (the error message is its first answer)", async () => {
    const failing = fakeModel().respond(new Error("the provider said no"));
    const agent = await createLeadAgent({ models: staticModels({ fake: failing }), checkpointer: new MemorySaver() });
    const state = (await agent.invoke(
      { messages: [new HumanMessage("Plan a trip to Lisbon")] },
      { configurable: { thread_id: "t-fail" } },
    )) as { title?: string; messages: BaseMessage[] };
    expect(state.messages.at(-1)?.response_metadata["finish_reason"]).toBe("error");
    expect(state.title).toBe("Plan a trip to Lisbon");
  });
});
