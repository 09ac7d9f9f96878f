import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { AgentError } from "../../errors.js";
import { createSummarizationMiddleware, type SummarizationOptions } from "./summarization.js";
import { DURABLE_CONTEXT_CONTRACT, durableContextText } from "./texts.js";

const call = (id: string) => ({ id, name: "ls", args: { path: `/p/${id}` }, type: "tool_call" as const });
/** A user message, then `pairs` tool calls with their results. */
function conversation(pairs: number): BaseMessage[] {
  const out: BaseMessage[] = [new HumanMessage({ content: "Please do the long task.", id: "user-1" })];
  for (let i = 0; i < pairs; i++)
    out.push(
      new AIMessage({ content: "", tool_calls: [call(`c${i}`)], id: `ai-${i}` }),
      new ToolMessage({ content: `result ${i}`, tool_call_id: `c${i}`, id: `tool-${i}` }),
    );
  return out;
}

/** The agent's state as these tests read it. */
type Out = { messages: BaseMessage[]; summary_text?: string };

function setup(
  options: Omit<SummarizationOptions, "model">,
  summaries: (AIMessage | Error)[] = [new AIMessage("SUMMARY ONE")],
) {
  const summarizer = fakeModel();
  for (const s of summaries) summarizer.respond(s);
  const main = fakeModel().respond(new AIMessage("answer 1")).respond(new AIMessage("answer 2"));
  const middleware = createSummarizationMiddleware({ ...options, model: async () => summarizer });
  const agent = createAgent({
    model: main,
    tools: [],
    middleware: [middleware],
    checkpointer: new MemorySaver(),
    systemPrompt: "You are helpful.",
  });
  return { agent, main, summarizer, config: { configurable: { thread_id: "t" } } };
}

describe("SummarizationMiddleware", () => {
  it("never fires without a trigger, nor below it", async () => {
    for (const trigger of [undefined, [{ type: "messages" as const, value: 100 }]]) {
      const { agent, summarizer, config } = setup({
        ...(trigger === undefined ? {} : { trigger }),
        keep: { type: "messages", value: 2 },
      });
      const out = (await agent.invoke({ messages: conversation(10) }, config)) as Out;
      expect(summarizer.callCount).toBe(0);
      expect(out.summary_text).toBeUndefined();
      expect(out.messages).toHaveLength(22);
    }
  });

  it("replaces old messages by summary_text, keeps the tail and the latest user message by id", async () => {
    const { agent, main, summarizer, config } = setup({
      trigger: [
        { type: "tokens", value: 1_000_000 },
        { type: "messages", value: 10 },
      ],
      keep: { type: "messages", value: 4 },
    });
    const out = (await agent.invoke({ messages: conversation(10) }, config)) as Out;
    expect(summarizer.callCount).toBe(1);
    expect(out.summary_text).toBe("SUMMARY ONE");
    const ids = out.messages.map((m) => m.id);
    // No summary message in the thread: the user's message, the last 4, the answer.
    expect(ids.slice(0, 5)).toEqual(["user-1", "ai-8", "tool-8", "ai-9", "tool-9"]);
    expect(out.messages).toHaveLength(6);
    // The model saw the summary as data, first, with the contract in its system prompt.
    const sent = main.calls[0]?.messages ?? [];
    expect(sent[0]?.text).toBe(`You are helpful.\n\n${DURABLE_CONTEXT_CONTRACT}`);
    expect(sent[1]?.content).toBe(durableContextText("SUMMARY ONE"));
    expect(sent[1]?.additional_kwargs["hide_from_ui"]).toBe(true);
  });

  it("never separates a tool call from its result", async () => {
    // keep 3 would start the tail at a tool result: the cut moves back to its call.
    const { agent, config } = setup({ trigger: { type: "messages", value: 5 }, keep: { type: "messages", value: 3 } });
    const out = (await agent.invoke({ messages: conversation(6) }, config)) as Out;
    const kept = out.messages as BaseMessage[];
    for (const m of kept) {
      if (!ToolMessage.isInstance(m)) continue;
      expect(kept.some((k) => AIMessage.isInstance(k) && k.tool_calls?.some((c) => c.id === m.tool_call_id))).toBe(
        true,
      );
    }
  });

  it("folds the previous summary into the next one, escaped and as data", async () => {
    const { agent, summarizer, main, config } = setup(
      { trigger: { type: "messages", value: 8 }, keep: { type: "messages", value: 2 } },
      [new AIMessage("first <b>summary</b>"), new AIMessage("second summary")],
    );
    (await agent.invoke({ messages: conversation(5) }, config)) as Out;
    expect(main.calls[0]?.messages[1]?.content).toContain("first &lt;b&gt;summary&lt;/b&gt;");
    const out = (await agent.invoke(
      { messages: conversation(5).map((m) => (m.id === undefined ? m : Object.assign(m, { id: `2-${m.id}` }))) },
      config,
    )) as Out;
    expect(out.summary_text).toBe("second summary");
    const secondPrompt = String(summarizer.calls[1]?.messages[0]?.content);
    expect(secondPrompt).toContain("<existing_summary>\nfirst &lt;b&gt;summary&lt;/b&gt;\n</existing_summary>");
  });

  it("does nothing when the summary fails, and tries again later", async () => {
    const { agent, summarizer, config } = setup(
      { trigger: { type: "messages", value: 5 }, keep: { type: "messages", value: 2 } },
      [new Error("provider down"), new AIMessage("late summary")],
    );
    const first = (await agent.invoke({ messages: conversation(4) }, config)) as Out;
    expect(first.summary_text).toBeUndefined();
    expect(first.messages).toHaveLength(10);
    expect((first.messages.at(-1) as AIMessage).content).toBe("answer 1");
    const second = (await agent.invoke({ messages: [new HumanMessage("more")] }, config)) as Out;
    expect(summarizer.callCount).toBe(2);
    expect(second.summary_text).toBe("late summary");
  });

  it("rejects malformed sizes naming the key", () => {
    const model = async () => fakeModel();
    expect(() => createSummarizationMiddleware({ model, trigger: [{ type: "fraction", value: 1.5 }] })).toThrow(
      /^summarization\.trigger\[0\] /,
    );
    expect(() => createSummarizationMiddleware({ model, keep: { type: "messages", value: -1 } })).toThrow(AgentError);
    expect(() => createSummarizationMiddleware({ model, trimTokensToSummarize: 0 })).toThrow(
      /^summarization\.trim_tokens_to_summarize /,
    );
  });
});
