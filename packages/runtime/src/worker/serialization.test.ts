import {
  AIMessage,
  AIMessageChunk,
  HumanMessage,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import {
  MAX_SERIALIZE_DEPTH,
  serializeMessage,
  serializeMessageTuple,
  serializeState,
  serializeValue,
} from "./serialization.js";

/** The value survives JSON.stringify unchanged (it is plain JSON data). */
function expectJsonSafe(value: unknown): void {
  expect(JSON.parse(JSON.stringify(value))).toEqual(value);
}

describe("serializeMessage", () => {
  it("gives human, system and AI messages the SDK dict shape", () => {
    expect(serializeMessage(new HumanMessage({ content: "hi", id: "h1" }))).toEqual({
      type: "human",
      id: "h1",
      content: "hi",
      additional_kwargs: {},
      response_metadata: {},
    });
    expect(serializeMessage(new SystemMessage({ content: "be nice", id: "s1", name: "sys" }))).toMatchObject({
      type: "system",
      name: "sys",
    });
    const ai = serializeMessage(
      new AIMessage({
        content: "calling",
        id: "a1",
        tool_calls: [{ id: "t1", name: "search", args: { q: "x" }, type: "tool_call" }],
        usage_metadata: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
      } as unknown as ConstructorParameters<typeof AIMessage>[0]),
    );
    expect(ai).toMatchObject({
      type: "ai",
      id: "a1",
      content: "calling",
      tool_calls: [{ id: "t1", name: "search", args: { q: "x" }, type: "tool_call" }],
      invalid_tool_calls: [],
      usage_metadata: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
    });
    expectJsonSafe(ai);
  });

  it("always gives AI messages tool_calls and invalid_tool_calls arrays and a null id when missing", () => {
    const ai = serializeMessage(new AIMessage("plain"));
    expect(ai["tool_calls"]).toEqual([]);
    expect(ai["invalid_tool_calls"]).toEqual([]);
    expect(ai["id"]).toBeNull();
  });

  it("serialises chunks as type ai with their tool_call_chunks, like LangGraph's JS API server", () => {
    const chunk = new AIMessageChunk({
      content: "par",
      id: "c1",
      tool_call_chunks: [{ name: "f", args: '{"a":', id: "tc", index: 0, type: "tool_call_chunk" }],
    });
    const out = serializeMessage(chunk);
    expect(out).toMatchObject({ type: "ai", id: "c1", content: "par" });
    expect(out["tool_call_chunks"]).toEqual([
      { name: "f", args: '{"a":', id: "tc", index: 0, type: "tool_call_chunk" },
    ]);
    // what the toDict-based JS server gives, minus nothing: every key of it is present
    const { type, data } = chunk.toDict();
    expect(out).toMatchObject({ ...JSON.parse(JSON.stringify(data)), type });
  });

  it("keeps tool_call_id, status and artifact of tool messages", () => {
    const out = serializeMessage(
      new ToolMessage({ content: "42", tool_call_id: "t1", id: "tm", status: "error", artifact: { rows: [1, 2] } }),
    );
    expect(out).toMatchObject({ type: "tool", tool_call_id: "t1", status: "error", artifact: { rows: [1, 2] } });
  });

  it("serialises RemoveMessage with its type", () => {
    expect(serializeMessage(new RemoveMessage({ id: "gone" }))).toMatchObject({ type: "remove", id: "gone" });
  });
});

describe("serializeValue", () => {
  it("passes primitives and recurses into arrays and objects", () => {
    expect(serializeValue({ a: 1, b: "x", c: [true, null, { d: 2.5 }] })).toEqual({
      a: 1,
      b: "x",
      c: [true, null, { d: 2.5 }],
    });
    expect(serializeValue("s")).toBe("s");
    expect(serializeValue(undefined)).toBeNull();
  });

  it("converts Date, BigInt, Map, Set, typed arrays, errors and toJSON objects", () => {
    const out = serializeValue({
      at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
      bad: new Date("nope"),
      big: 12345678901234567890n,
      map: new Map<unknown, unknown>([
        ["k", 1],
        [2, new Set(["x"])],
      ]),
      bytes: new Uint8Array([1, 2, 3]),
      err: new TypeError("boom"),
      url: new URL("https://example.com/a?b=1"),
      re: /a+/g,
    });
    expect(out).toEqual({
      at: "2024-01-02T03:04:05.000Z",
      bad: null,
      big: "12345678901234567890",
      map: { k: 1, "2": ["x"] },
      bytes: "AQID",
      err: { name: "TypeError", message: "boom" },
      url: "https://example.com/a?b=1",
      re: "/a+/g",
    });
  });

  it("drops undefined, functions and symbols from objects and nulls them in arrays", () => {
    expect(serializeValue({ a: undefined, f: () => 1, s: Symbol("x"), keep: 0 })).toEqual({ keep: 0 });
    expect(serializeValue([undefined, () => 1, Symbol("s"), 1])).toEqual([null, null, null, 1]);
    expect(serializeValue([NaN, Infinity, -Infinity])).toEqual([null, null, null]);
  });

  it("turns cycles into a marker without crashing, but serialises shared references fully", () => {
    const a: Record<string, unknown> = { name: "a" };
    a["self"] = a;
    const list: unknown[] = [1];
    list.push(list);
    expect(serializeValue(a)).toEqual({ name: "a", self: "[Circular]" });
    expect(serializeValue(list)).toEqual([1, "[Circular]"]);
    const shared = { v: 1 };
    expect(serializeValue({ x: shared, y: shared })).toEqual({ x: { v: 1 }, y: { v: 1 } });
  });

  it("survives a cycle through a message's additional_kwargs", () => {
    const kwargs: Record<string, unknown> = {};
    const msg = new AIMessage({ content: "x", id: "m", additional_kwargs: kwargs });
    kwargs["msg"] = msg;
    const out = serializeValue({ messages: [msg] }) as { messages: Record<string, unknown>[] };
    expect(out.messages[0]?.["additional_kwargs"]).toEqual({ msg: "[Circular]" });
    expectJsonSafe(out);
  });

  it("caps very deep nesting instead of overflowing the stack", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const out = serializeValue(deep);
    let depth = 0;
    let cursor: unknown = out;
    while (Array.isArray(cursor)) {
      cursor = cursor[0];
      depth++;
    }
    expect(cursor).toBe("[MaxDepth]");
    expect(depth).toBe(MAX_SERIALIZE_DEPTH);
  });

  it("keeps huge strings intact", () => {
    const huge = "x".repeat(5_000_000);
    const out = serializeValue({ huge }) as { huge: string };
    expect(out.huge.length).toBe(5_000_000);
  });

  it("drops throwing getters and a throwing toJSON instead of failing", () => {
    const hostile = {
      ok: 1,
      get boom(): never {
        throw new Error("getter");
      },
    };
    expect(serializeValue(hostile)).toEqual({ ok: 1 });
    expect(
      serializeValue({
        t: {
          toJSON: () => {
            throw new Error("no");
          },
        },
      }),
    ).toEqual({ t: "[Unserializable]" });
  });

  it("keeps a __proto__ key as data", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
    const out = serializeValue(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(JSON.parse(JSON.stringify(out))).toEqual({ ["__proto__"]: { polluted: true }, a: 1 });
  });

  it("serialises LangGraph interrupts as {id, value}", () => {
    expect(serializeValue({ __interrupt__: [{ id: "i1", value: { question: "ok?" } }] })).toEqual({
      __interrupt__: [{ id: "i1", value: { question: "ok?" } }],
    });
  });
});

describe("serializeState", () => {
  const dataImage = { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } };
  const httpsImage = { type: "image_url", image_url: { url: "https://example.com/a.png" } };
  const text = { type: "text", text: "look" };

  it("drops __pregel_ keys and keeps __interrupt__", () => {
    const out = serializeState({
      __pregel_tasks: [1],
      __pregel_x: 2,
      __interrupt__: [{ id: "i", value: 1 }],
      count: 3,
    });
    expect(out).toEqual({ __interrupt__: [{ id: "i", value: 1 }], count: 3 });
  });

  it("strips inline data images from messages hidden from the UI, keeping order and other blocks", () => {
    const hidden = new HumanMessage({
      id: "h",
      content: [text, dataImage, httpsImage],
      additional_kwargs: { hide_from_ui: true },
    });
    const shown = new HumanMessage({ id: "s", content: [text, dataImage] });
    const stringForm = new HumanMessage({
      id: "t",
      content: [{ type: "image_url", image_url: "data:image/jpeg;base64,BBBB" }, text],
      additional_kwargs: { hide_from_ui: true },
    });
    const out = serializeState({ messages: [hidden, shown, stringForm] }) as { messages: { content: unknown }[] };
    expect(out.messages[0]?.content).toEqual([text, httpsImage]);
    expect(out.messages[1]?.content).toEqual([text, dataImage]);
    expect(out.messages[2]?.content).toEqual([text]);
  });

  it("applies the same stripping to plain message dicts in state", () => {
    const out = serializeState({
      messages: [{ type: "human", content: [dataImage, text], additional_kwargs: { hide_from_ui: true } }],
    });
    expect(out).toEqual({ messages: [{ type: "human", content: [text], additional_kwargs: { hide_from_ui: true } }] });
  });

  it("does not strip outside values mode", () => {
    const hidden = new HumanMessage({ id: "h", content: [dataImage], additional_kwargs: { hide_from_ui: true } });
    expect((serializeValue({ m: hidden }) as { m: { content: unknown } }).m.content).toEqual([dataImage]);
  });

  it("serialises non-object state with the generic rules", () => {
    expect(serializeState(5n)).toBe("5");
    expect(serializeState(null)).toBeNull();
  });
});

describe("serializeMessageTuple", () => {
  it("serialises [chunk, metadata] pairs", () => {
    const out = serializeMessageTuple([
      new AIMessageChunk({ content: "a", id: "c" }),
      { langgraph_node: "model", at: new Date(0) },
    ]);
    expect(out).toEqual([
      expect.objectContaining({ type: "ai", id: "c", content: "a" }),
      { langgraph_node: "model", at: "1970-01-01T00:00:00.000Z" },
    ]);
  });

  it("walks one metadata object once for all its tokens, sharing a frozen copy", () => {
    const metadata = { langgraph_node: "model", tags: ["a"] };
    const first = serializeMessageTuple([new AIMessageChunk({ content: "a", id: "c" }), metadata]) as unknown[];
    const second = serializeMessageTuple([new AIMessageChunk({ content: "b", id: "c" }), metadata]) as unknown[];
    expect(second[1]).toBe(first[1]);
    expect(Object.isFrozen(first[1])).toBe(true);
    expect(Object.isFrozen((first[1] as { tags: unknown }).tags)).toBe(true);
    expect(first[1]).toEqual({ langgraph_node: "model", tags: ["a"] });
    // Another metadata object (another model call) is walked on its own.
    const other = serializeMessageTuple([new AIMessageChunk({ content: "c", id: "d" }), { langgraph_node: "tools" }]);
    expect((other as unknown[])[1]).toEqual({ langgraph_node: "tools" });
  });

  it("replaces metadata that is not a plain object with {}", () => {
    expect(serializeMessageTuple([new AIMessageChunk({ content: "a", id: "c" }), "meta"])).toEqual([
      expect.objectContaining({ id: "c" }),
      {},
    ]);
    expect(serializeMessageTuple([new AIMessageChunk({ content: "a", id: "c" }), new Map()])).toEqual([
      expect.objectContaining({ id: "c" }),
      {},
    ]);
  });

  it("serialises anything else generically", () => {
    expect(serializeMessageTuple({ a: 1n })).toEqual({ a: "1" });
    expect(serializeMessageTuple([1, 2, 3])).toEqual([1, 2, 3]);
  });
});
