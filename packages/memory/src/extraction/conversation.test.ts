import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { conversationTurns, detectSignals } from "./conversation.js";

describe("conversationTurns", () => {
  it("keeps the user's words and final answers, without tool traffic, hidden messages or upload blocks", () => {
    const turns = conversationTurns([
      new HumanMessage("<uploaded_files>a.pdf</uploaded_files>Summarise this"),
      new AIMessage({ content: "", tool_calls: [{ id: "c", name: "read_file", args: {} }] }),
      new ToolMessage({ tool_call_id: "c", content: "file text" }),
      new HumanMessage({ content: "<memory>old</memory>", additional_kwargs: { hide_from_ui: true } }),
      new AIMessage({ content: [{ type: "text", text: "Here is the summary." }] }),
    ]);
    expect(turns).toEqual([
      { role: "user", text: "Summarise this" },
      { role: "assistant", text: "Here is the summary." },
    ]);
  });
});

describe("detectSignals", () => {
  it("finds corrections and reinforcements in the user's words only", () => {
    expect([...detectSignals([{ role: "user", text: "No, I meant the other file" }])]).toEqual(["correction"]);
    expect([...detectSignals([{ role: "user", text: "Perfect, thanks" }])]).toEqual(["reinforcement"]);
    expect([...detectSignals([{ role: "assistant", text: "Perfect, that's wrong" }])]).toEqual([]);
    expect([...detectSignals([{ role: "user", text: "Write a haiku" }])]).toEqual([]);
  });
});
