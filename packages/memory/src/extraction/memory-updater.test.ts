import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { StoreMemoryBackend } from "../backend/store-memory-backend.js";
import { MemoryManager } from "../memory-manager.js";
import { MemoryUpdater } from "./memory-updater.js";

const scope = { userId: "alice" };
const durable = { scope: "user", durability: "durable", authority: "descriptive" };
const setup = () => new MemoryManager({ backend: new StoreMemoryBackend({ store: new InMemoryStore() }) });
const conversation = [
  new HumanMessage("I'm a Rust developer in Lisbon. <current_uploads>/mnt/user-data/uploads/a.pdf</current_uploads>"),
  new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "search", args: {} }] }),
  new ToolMessage({ tool_call_id: "c1", content: "tool output" }),
  new HumanMessage({ content: "hidden reminder", additional_kwargs: { hide_from_ui: true } }),
  new AIMessage("Nice to meet you!"),
];

describe("MemoryUpdater", () => {
  it("extracts with structured output and stores what passes the gate", async () => {
    const manager = setup();
    const model = fakeModel().structuredResponse({
      user: {
        workContext: { summary: "Rust developer.", shouldUpdate: true, scope: "user", authority: "descriptive" },
      },
      newFacts: [
        { content: "Lives in Lisbon", category: "context", confidence: 0.9, ...durable },
        { content: "Maybe likes tea", category: "preference", confidence: 0.5, ...durable },
      ],
    });
    const outcome = await new MemoryUpdater({ manager, model }).update({
      scope,
      threadId: "t1",
      messages: conversation,
    });
    expect(outcome.status).toBe("applied");
    const doc = await manager.get(scope);
    expect(doc.facts.map((f) => [f.content, f.source])).toEqual([
      ["Lives in Lisbon", { type: "conversation", threadId: "t1" }],
    ]);
    expect(doc.user.workContext.summary).toBe("Rust developer.");
  });

  it("skips a trivial conversation without calling the model", async () => {
    const manager = setup();
    const model = async () => {
      throw new Error("the model must not be asked");
    };
    const outcome = await new MemoryUpdater({ manager, model }).update({
      scope,
      threadId: "t1",
      messages: [new HumanMessage("hi")],
    });
    expect(outcome).toEqual({ status: "skipped", reason: "trivial" });
  });

  it("reinforces a fact only when the user's words carry a reinforcement signal", async () => {
    const manager = setup();
    const fact = await manager.addFact(scope, { content: "Prefers short answers", confidence: 0.9 });
    const answer = { newFacts: [], factsToReinforce: [{ id: fact.id, scope: "user", reason: "confirmed" }] };
    const updater = new MemoryUpdater({ manager, model: fakeModel().structuredResponse(answer) });
    const first = [new HumanMessage("ok"), new AIMessage("Done.")];
    await updater.update({ scope, threadId: "t1", messages: first });
    expect((await manager.get(scope)).facts[0]?.confirmationCount).toBeUndefined();
    await updater.update({
      scope,
      threadId: "t1",
      messages: [...first, new HumanMessage("Perfect, exactly like that"), new AIMessage("Glad it helped.")],
    });
    expect((await manager.get(scope)).facts[0]?.confirmationCount).toBe(1);
  });

  it("extracts each turn of a conversation once (watermark); another thread starts from its first turn", async () => {
    const manager = setup();
    const prompts: string[] = [];
    const model = fakeModel().structuredResponse({ newFacts: [] });
    const structured = model.withStructuredOutput.bind(model);
    model.withStructuredOutput = ((...args: Parameters<typeof structured>) => {
      const runnable = structured(...args);
      return {
        invoke: async (messages: { content: unknown }[], options: unknown) => {
          prompts.push(String(messages[1]?.content));
          return runnable.invoke(messages as never, options as never);
        },
      };
    }) as never;
    const updater = new MemoryUpdater({ manager, model });
    const turn1 = [new HumanMessage("I play chess"), new AIMessage("Nice.")];
    const turn2 = [new HumanMessage("I also sail"), new AIMessage("Great.")];
    await updater.update({ scope, threadId: "t1", messages: turn1 });
    await updater.update({ scope, threadId: "t1", messages: [...turn1, ...turn2] });
    expect(prompts[0]).toContain("I play chess");
    expect(prompts[1]).toContain("I also sail");
    expect(prompts[1]).not.toContain("I play chess");
    // Nothing new: no model call.
    expect((await updater.update({ scope, threadId: "t1", messages: [...turn1, ...turn2] })).status).toBe("skipped");
    await updater.update({ scope, threadId: "t2", messages: [...turn1, ...turn2] });
    expect(prompts[2]).toContain("I play chess");
    expect(prompts).toHaveLength(3);
  });
});
