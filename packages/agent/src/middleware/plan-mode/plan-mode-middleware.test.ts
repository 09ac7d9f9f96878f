import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, createMiddleware, type AgentMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { toolNotOfferedText } from "../run-tools.js";
import {
  createPlanModeMiddleware,
  PARALLEL_WRITE_TODOS_TEXT,
  PlanModeState,
  WRITE_TODOS_TOOL_NAME,
} from "./plan-mode-middleware.js";

const todos = [
  { content: "Read the report", status: "in_progress" },
  { content: "Summarise it", status: "pending" },
];

/** Records the tool names of each model request that reaches it (put it inside the middleware under test). */
function toolSpy(): { readonly seen: string[][]; readonly middleware: AgentMiddleware } {
  const seen: string[][] = [];
  const middleware = createMiddleware({
    name: "ToolSpy",
    wrapModelCall: (request, handler) => {
      seen.push(request.tools.map((t) => String((t as { name?: unknown }).name)));
      return handler(request);
    },
  });
  return { seen, middleware };
}

function systemText(model: ReturnType<typeof fakeModel>, call: number): string {
  const first = (model.calls[call]?.messages as BaseMessage[] | undefined)?.[0];
  return first !== undefined && SystemMessage.isInstance(first) ? first.text : "";
}

async function run(model: ReturnType<typeof fakeModel>, context: Record<string, unknown>, spy = toolSpy()) {
  const agent = createAgent({
    model,
    tools: [],
    middleware: [createPlanModeMiddleware(), spy.middleware],
    systemPrompt: "You are helpful.",
    checkpointer: new MemorySaver(),
  });
  const state = await agent.invoke(
    { messages: [new HumanMessage("plan this")] },
    { configurable: { thread_id: "t" }, context },
  );
  return state as unknown as { messages: BaseMessage[]; todos?: unknown };
}

describe("createPlanModeMiddleware", () => {
  it("offers write_todos with its prompt section in plan mode and keeps the list in state", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: WRITE_TODOS_TOOL_NAME, args: { todos }, id: "w1" }])
      .respond(new AIMessage("Planned."));
    const spy = toolSpy();
    const state = await run(model, { is_plan_mode: true }, spy);
    expect(spy.seen[0]).toContain(WRITE_TODOS_TOOL_NAME);
    expect(systemText(model, 0)).toContain("## `write_todos`");
    expect(state.todos).toEqual(todos);
    const result = state.messages.find((m) => ToolMessage.isInstance(m));
    expect(result?.content).toBe(`Updated todo list to ${JSON.stringify(todos)}`);
  });

  it("hides the tool and the prompt section outside plan mode and refuses a call to it", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: WRITE_TODOS_TOOL_NAME, args: { todos }, id: "w1" }])
      .respond(new AIMessage("Done."));
    const spy = toolSpy();
    const state = await run(model, { is_plan_mode: false }, spy);
    expect(spy.seen[0]).toEqual([]);
    expect(systemText(model, 0)).not.toContain("write_todos");
    expect(state.todos ?? []).toEqual([]);
    const refused = state.messages.find((m) => ToolMessage.isInstance(m)) as ToolMessage | undefined;
    expect(refused?.status).toBe("error");
    expect(refused?.content).toBe(toolNotOfferedText(WRITE_TODOS_TOOL_NAME));
  });

  it("is off when the run does not say (is_plan_mode defaults to false)", async () => {
    const model = fakeModel().respond(new AIMessage("Hi."));
    const spy = toolSpy();
    await run(model, {}, spy);
    expect(spy.seen).toEqual([[]]);
  });

  it("answers parallel write_todos calls with LangChain's error and asks the model again, without a graph node", async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: WRITE_TODOS_TOOL_NAME, args: { todos }, id: "w1" },
        { name: WRITE_TODOS_TOOL_NAME, args: { todos: [] }, id: "w2" },
      ])
      .respondWithTools([{ name: WRITE_TODOS_TOOL_NAME, args: { todos }, id: "w3" }])
      .respond(new AIMessage("Planned."));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createPlanModeMiddleware()],
      checkpointer: new MemorySaver(),
    });
    expect(Object.keys(agent.graph.nodes).sort()).toEqual(["__start__", "model_request", "tools"]);
    const state = (await agent.invoke(
      { messages: [new HumanMessage("plan this")] },
      { configurable: { thread_id: "t" }, context: { is_plan_mode: true } },
    )) as unknown as { messages: BaseMessage[]; todos?: unknown };
    const results = state.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(results.slice(0, 2).map((r) => [r.tool_call_id, r.status, r.content])).toEqual([
      ["w1", "error", PARALLEL_WRITE_TODOS_TEXT],
      ["w2", "error", PARALLEL_WRITE_TODOS_TEXT],
    ]);
    // The model saw the errors and wrote the list once.
    expect(model.calls).toHaveLength(3);
    expect(state.todos).toEqual(todos);
  });

  it("declares no state of its own with declareState: false (the agent's PlanModeState does)", async () => {
    expect(createPlanModeMiddleware({ declareState: false }).stateSchema).toBeUndefined();
    const model = fakeModel()
      .respondWithTools([{ name: WRITE_TODOS_TOOL_NAME, args: { todos }, id: "w1" }])
      .respond(new AIMessage("Planned."));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createPlanModeMiddleware({ declareState: false })],
      stateSchema: PlanModeState,
    });
    const state = (await agent.invoke(
      { messages: [new HumanMessage("plan this")] },
      { context: { is_plan_mode: true } },
    )) as unknown as { todos?: unknown };
    expect(state.todos).toEqual(todos);
  });

  it("uses the replacement prompt text", async () => {
    const model = fakeModel().respond(new AIMessage("Hi."));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createPlanModeMiddleware({ systemPrompt: "PLAN CAREFULLY." })],
      systemPrompt: "Base.",
    });
    await agent.invoke({ messages: [new HumanMessage("x")] }, { context: { is_plan_mode: true } });
    expect(systemText(model, 0)).toContain("PLAN CAREFULLY.");
  });
});
