import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { createTitleMiddleware, shouldTitle, TitleState, type TitleMiddlewareOptions } from "./title-middleware.js";
import { fallbackTitle, parseTitle, titlePrompt } from "./title-text.js";

async function titled(
  options: TitleMiddlewareOptions,
  user: string | BaseMessage = "What is the capital of France?",
  turns = 1,
) {
  const model = fakeModel();
  for (let i = 0; i < turns; i++) model.respond(new AIMessage(`answer ${i}`));
  const agent = createAgent({
    model,
    tools: [],
    middleware: [createTitleMiddleware(options)],
    stateSchema: TitleState,
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: "t" } };
  let state = await agent.invoke({ messages: [typeof user === "string" ? new HumanMessage(user) : user] }, config);
  for (let i = 1; i < turns; i++)
    state = await agent.invoke({ messages: [new HumanMessage(`follow-up ${i}`)] }, config);
  return { state: state as unknown as { title?: string }, model };
}

describe("fallbackTitle", () => {
  it("keeps a short message and cuts a long one to min(50, max_chars - 3) plus ...", () => {
    expect(fallbackTitle("Short question", 60)).toBe("Short question");
    const long = "a".repeat(49) + " tail of a long message that goes on";
    expect(fallbackTitle(long, 60)).toBe(`${"a".repeat(49)}...`);
    expect(fallbackTitle("x".repeat(30), 20)).toBe(`${"x".repeat(17)}...`);
    expect(fallbackTitle("x".repeat(30), 20).length).toBeLessThanOrEqual(20);
    expect(fallbackTitle("   ", 60)).toBe("New Conversation");
  });
});

describe("parseTitle / titlePrompt", () => {
  it("strips <think> blocks and quotes and cuts to max_chars", () => {
    expect(parseTitle('<think>hmm, maybe</think>\n "Paris Trip Plan" ', 60)).toBe("Paris Trip Plan");
    expect(parseTitle("'Quoted'", 60)).toBe("Quoted");
    expect(parseTitle("A very long generated title", 10)).toBe("A very lon");
  });

  it("fills DeerFlow's fields, 500 characters of each message, assistant <think> removed", () => {
    const prompt = titlePrompt("{max_words}|{user_msg}|{assistant_msg}|{other}", {
      maxWords: 6,
      userText: "u".repeat(600),
      assistantText: "<think>x</think>ok",
    });
    expect(prompt).toBe(`6|${"u".repeat(500)}|ok|{other}`);
  });
});

describe("shouldTitle", () => {
  it("needs one real user message and an AI answer, and no title yet", () => {
    const exchange = [new HumanMessage("hi"), new AIMessage("hello")];
    expect(shouldTitle(exchange, undefined)).toBe(true);
    expect(shouldTitle(exchange, "Set")).toBe(false);
    expect(shouldTitle([new HumanMessage("hi")], undefined)).toBe(false);
    expect(shouldTitle([...exchange, new HumanMessage("again"), new AIMessage("x")], undefined)).toBe(false);
    const reminder = new HumanMessage({ content: "<memory>…</memory>", additional_kwargs: { hide_from_ui: true } });
    expect(shouldTitle([reminder, ...exchange], undefined)).toBe(true);
  });
});

describe("createTitleMiddleware", () => {
  it("writes the local title after the first exchange", async () => {
    const { state } = await titled({});
    expect(state.title).toBe("What is the capital of France?");
  });

  it("asks the title model outside the client's message stream and uses its cleaned answer", async () => {
    const titleModel = fakeModel().respond(new AIMessage('<think>short</think>"France Capital Question"'));
    const model = fakeModel().respond(new AIMessage("answer 0"));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createTitleMiddleware({ model: async () => titleModel, maxWords: 4 })],
      stateSchema: TitleState,
    });
    const streamed: string[] = [];
    let title: unknown;
    for await (const [mode, chunk] of await agent.stream(
      { messages: [new HumanMessage("What is the capital of France?")] },
      { streamMode: ["messages", "values"] },
    )) {
      if (mode === "messages") streamed.push(String((chunk as unknown as [BaseMessage])[0].content));
      else title = (chunk as { title?: string }).title;
    }
    expect(title).toBe("France Capital Question");
    expect(streamed.join("|")).toContain("answer 0");
    expect(streamed.join("|")).not.toContain("France Capital");
    expect((titleModel.calls[0]?.messages as BaseMessage[])[0]?.text).toBe(
      "Generate a concise title (max 4 words) for this conversation.\nUser: What is the capital of France?\nAssistant: answer 0\n\nReturn ONLY the title, no quotes, no explanation.",
    );
  });

  it("hands the title to onTitle with the run's config, and survives its failure", async () => {
    const seen: [string, unknown][] = [];
    const model = fakeModel().respond(new AIMessage("ok"));
    const onTitle = async (
      title: string,
      config: { readonly configurable?: Readonly<Record<string, unknown>> | undefined },
    ): Promise<void> => {
      seen.push([title, config.configurable?.["thread_id"]]);
      throw new Error("store down");
    };
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createTitleMiddleware({ onTitle })],
      stateSchema: TitleState,
      checkpointer: new MemorySaver(),
    });
    const state = await agent.invoke(
      { messages: [new HumanMessage("Name me")] },
      { configurable: { thread_id: "t-on" } },
    );
    expect(seen).toEqual([["Name me", "t-on"]]);
    expect((state as unknown as { title?: string }).title).toBe("Name me");
  });

  it("falls back to the local title when the model fails", async () => {
    const titleModel = fakeModel().respond(new Error("provider down"));
    const { state } = await titled({ model: async () => titleModel });
    expect(state.title).toBe("What is the capital of France?");
  });

  it("keeps the first title on later turns and does nothing when disabled", async () => {
    const titleModel = fakeModel().respond(new AIMessage("First")).respond(new AIMessage("Second"));
    const { state } = await titled({ model: async () => titleModel }, "hello", 2);
    expect(state.title).toBe("First");
    expect(titleModel.calls).toHaveLength(1);
    expect((await titled({ enabled: false })).state.title).toBeUndefined();
  });

  it("leaves a <current_uploads> block out of the title", async () => {
    const message = new HumanMessage(
      "<current_uploads>\nThe following files…\n</current_uploads>\n\nSummarise the report",
    );
    expect((await titled({}, message)).state.title).toBe("Summarise the report");
  });

  it("rejects out-of-range settings naming the key", () => {
    expect(() => createTitleMiddleware({ maxWords: 0 })).toThrow(/title\.max_words/);
    expect(() => createTitleMiddleware({ maxChars: 500 })).toThrow(/title\.max_chars/);
  });
});
