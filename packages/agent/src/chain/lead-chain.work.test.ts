import fs from "node:fs/promises";
import path from "node:path";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { localProvider } from "../../test/support/fixtures.js";
import { createLeadAgent, staticModels, type LeadAgentOptions } from "../index.js";

// The "Work" middlewares (plan mode, title, uploads) in the compiled lead agent.
async function run(
  options: LeadAgentOptions,
  threadId: string,
  message: HumanMessage,
  context: Record<string, unknown> = {},
) {
  const agent = await createLeadAgent({ checkpointer: new MemorySaver(), ...options });
  const state = await agent.invoke({ messages: [message] }, { configurable: { thread_id: threadId }, context });
  return state as unknown as { messages: BaseMessage[]; todos?: unknown; title?: string };
}

describe("lead chain: plan mode, title, uploads", () => {
  it("keeps todos in state for a plan-mode run and titles the thread", async () => {
    const todos = [{ content: "Outline", status: "in_progress" }];
    const model = fakeModel()
      .respondWithTools([{ name: "write_todos", args: { todos }, id: "w1" }])
      .respond(new AIMessage("Planned."));
    const state = await run({ models: staticModels({ fake: model }) }, "t-plan", new HumanMessage("Plan my essay"), {
      is_plan_mode: true,
    });
    expect(state.todos).toEqual(todos);
    expect(state.title).toBe("Plan my essay");
  });

  it("refuses write_todos outside plan mode", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "write_todos", args: { todos: [] }, id: "w1" }])
      .respond(new AIMessage("Ok."));
    const state = await run({ models: staticModels({ fake: model }) }, "t-noplan", new HumanMessage("hi"));
    const result = state.messages.find((m) => ToolMessage.isInstance(m)) as ToolMessage | undefined;
    expect(result?.status).toBe("error");
  });

  it("asks title.model_name's model for the title", async () => {
    const model = fakeModel().respond(new AIMessage("Hello!"));
    const titler = fakeModel().respond(new AIMessage('"Greeting Exchange"'));
    const state = await run(
      { models: staticModels({ fake: model, titler }), middleware: { title: { modelName: "titler" } } },
      "t-title",
      new HumanMessage("hi there"),
    );
    expect(state.title).toBe("Greeting Exchange");
  });

  it("announces uploads that are in the thread's uploads folder", async () => {
    const provider = await localProvider();
    const uploads = provider.threadPaths("t-up").uploads;
    await fs.mkdir(uploads, { recursive: true });
    await fs.writeFile(path.join(uploads, "data.csv"), "a,b\n1,2\n");
    const model = fakeModel().respond(new AIMessage("Read it."));
    const files = [
      { filename: "data.csv", size: 8, path: "/mnt/user-data/uploads/data.csv", status: "uploaded" },
      { filename: "missing.pdf", size: 99, path: "/mnt/user-data/uploads/missing.pdf", status: "uploaded" },
    ];
    await run(
      { models: staticModels({ fake: model }), sandboxProvider: provider },
      "t-up",
      new HumanMessage({ content: "What is in it?", additional_kwargs: { files } }),
    );
    const sent =
      (model.calls[0]?.messages as BaseMessage[]).filter((m) => HumanMessage.isInstance(m)).at(-1)?.text ?? "";
    expect(sent).toContain("- data.csv (0.0 KB)\n  Path: /mnt/user-data/uploads/data.csv");
    expect(sent).not.toContain("missing.pdf");
    expect(sent.endsWith("</current_uploads>\n\nWhat is in it?")).toBe(true);
  });
});
