import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { createHumanApprovalMiddleware, type ApprovalRequest } from "../../index.js";

async function setup(thread: string) {
  const ran: unknown[] = [];
  const bash = tool(async (args: { command?: string }) => (ran.push(args), `ran ${args.command}`), {
    name: "bash",
    description: "run",
    schema: { type: "object", properties: { command: { type: "string" } } },
  });
  const ls = tool(async () => (ran.push("ls"), "listed"), {
    name: "ls",
    description: "list",
    schema: { type: "object", properties: {} },
  });
  const model = fakeModel()
    .respondWithTools([
      { name: "bash", args: { command: "rm -rf build" }, id: "b1" },
      { name: "ls", args: {}, id: "l1" },
    ])
    .respond(new AIMessage("after review"))
    .respond(new AIMessage("second answer"));
  const agent = createAgent({
    model,
    tools: [bash, ls],
    middleware: [createHumanApprovalMiddleware({ tools: ["bash"] })],
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: thread } };
  return { agent, ran, config, model };
}

const toolResults = (messages: BaseMessage[]) =>
  messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => [m.name, m.content, m.status]);

describe("HumanApprovalMiddleware", () => {
  it("stops before a listed tool with the action and its allowed decisions; nothing has run", async () => {
    const { agent, ran, config } = await setup("a1");
    await agent.invoke({ messages: [new HumanMessage("clean up")] }, config);
    const state = await agent.graph.getState(config);
    const value = state.tasks[0]?.interrupts[0]?.value as ApprovalRequest;
    expect(value.actionRequests).toEqual([
      {
        name: "bash",
        args: { command: "rm -rf build" },
        description: 'Tool execution requires approval\n\nTool: bash\nArgs: {\n  "command": "rm -rf build"\n}',
      },
    ]);
    expect(value.reviewConfigs).toEqual([{ actionName: "bash", allowedDecisions: ["approve", "edit", "reject"] }]);
    expect(ran).toEqual([]);
  });

  it("runs the call as approved", async () => {
    const { agent, ran, config } = await setup("a2");
    await agent.invoke({ messages: [new HumanMessage("clean up")] }, config);
    const out = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
    // LangChain puts the calls that needed no review first.
    expect(ran).toEqual(["ls", { command: "rm -rf build" }]);
    expect(toolResults(out.messages)).toEqual([
      ["ls", "listed", "success"],
      ["bash", "ran rm -rf build", "success"],
    ]);
    expect(out.messages.at(-1)?.content).toBe("after review");
  });

  it("runs the call with the reviewer's arguments when edited", async () => {
    const { agent, ran, config } = await setup("a3");
    await agent.invoke({ messages: [new HumanMessage("clean up")] }, config);
    await agent.invoke(
      new Command({
        resume: {
          decisions: [{ type: "edit", editedAction: { name: "bash", args: { command: "rm -rf build/tmp" } } }],
        },
      }),
      config,
    );
    expect(ran).toEqual(["ls", { command: "rm -rf build/tmp" }]);
  });

  it("answers a rejected call with an error result and asks the model again", async () => {
    const { agent, ran, config } = await setup("a4");
    await agent.invoke({ messages: [new HumanMessage("clean up")] }, config);
    const out = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "reject", message: "Not that folder." }] } }),
      config,
    );
    expect(ran).toEqual([]);
    expect(toolResults(out.messages)).toContainEqual(["bash", "Not that folder.", "error"]);
    expect(out.messages.at(-1)?.content).toBe("after review");
  });

  it("cannot be switched off from the run's context", async () => {
    const { agent, ran, config } = await setup("a5");
    await agent.invoke({ messages: [new HumanMessage("clean up")] }, { ...config, context: { interruptOn: {} } });
    expect((await agent.graph.getState(config)).tasks[0]?.interrupts).toHaveLength(1);
    expect(ran).toEqual([]);
  });
});
