import { AIMessage, AIMessageChunk, HumanMessage, RemoveMessage, ToolMessageChunk } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { parseGraphStreamItem, StreamTranslator } from "./stream-translator.js";

const root = (mode: string, chunk: unknown) => ({ namespace: [], mode, chunk });

describe("parseGraphStreamItem", () => {
  it("splits [mode, chunk] and [namespace, mode, chunk] items", () => {
    expect(parseGraphStreamItem(["values", { a: 1 }], false)).toEqual({
      namespace: [],
      mode: "values",
      chunk: { a: 1 },
    });
    expect(parseGraphStreamItem([["sub:1"], "updates", {}], true)).toEqual({
      namespace: ["sub:1"],
      mode: "updates",
      chunk: {},
    });
  });

  it.each([[null], ["values"], [[1, 2]], [[["ns"], 3, {}]]])("rejects the malformed item %j", (item) => {
    expect(parseGraphStreamItem(item, Array.isArray(item) && Array.isArray(item[0]))).toBeNull();
  });
});

describe("StreamTranslator", () => {
  it("publishes only the requested modes", () => {
    const t = new StreamTranslator(["values"]);
    expect(t.translate(root("updates", { node: {} }))).toEqual([]);
    expect(t.translate(root("values", { x: 1, __pregel_tasks: [] }))).toEqual([{ event: "values", data: { x: 1 } }]);
  });

  it("flags root interrupts from updates or values, not from subgraphs", () => {
    const t = new StreamTranslator(["values"]);
    t.translate({ namespace: ["child:1"], mode: "updates", chunk: { __interrupt__: [] } });
    expect(t.sawInterrupt).toBe(false);
    t.translate(root("updates", { __interrupt__: [] }));
    expect(t.sawInterrupt).toBe(true);
  });

  it("legacy messages: a whole message replaces the accumulated chunks; mismatched chunk types do not throw", () => {
    const t = new StreamTranslator(["messages"]);
    t.translate(root("messages", [new AIMessageChunk({ content: "a", id: "m" }), {}]));
    const replaced = t.translate(root("messages", [new AIMessage({ content: "whole", id: "m" }), {}]));
    expect(replaced).toEqual([{ event: "messages/partial", data: [expect.objectContaining({ content: "whole" })] }]);
    const mixed = t.translate(
      root("messages", [new ToolMessageChunk({ content: "t", id: "x", tool_call_id: "c" }), {}]),
    );
    expect(mixed.map((e) => e.event)).toEqual(["messages/metadata", "messages/partial"]);
    expect(() => t.translate(root("messages", [new AIMessageChunk({ content: "b", id: "x" }), {}]))).not.toThrow();
  });

  it("legacy messages: skips id-less messages and removals, completes each id once across values and updates", () => {
    const t = new StreamTranslator(["messages"]);
    expect(t.translate(root("messages", [new AIMessageChunk({ content: "no id" }), {}]))).toEqual([]);
    const human = new HumanMessage({ content: "hi", id: "h" });
    const ai = new AIMessage({ content: "yo", id: "a" });
    expect(t.translate(root("updates", { model: { messages: ai } }))).toEqual([
      { event: "messages/complete", data: [expect.objectContaining({ id: "a" })] },
    ]);
    expect(t.translate(root("values", { messages: [human, ai, new RemoveMessage({ id: "h" })] }))).toEqual([
      { event: "messages/complete", data: [expect.objectContaining({ id: "h" })] },
    ]);
    expect(t.translate(root("values", { messages: [human, ai] }))).toEqual([]);
  });

  it("ignores malformed message tuples instead of failing", () => {
    const t = new StreamTranslator(["messages", "messages-tuple"]);
    expect(t.translate(root("messages", "garbage"))).toEqual([{ event: "messages", data: "garbage" }]);
    expect(t.translate(root("messages", [{ not: "a message" }, null]))).toEqual([
      { event: "messages", data: [{ not: "a message" }, {}] },
    ]);
  });
});
