import { describe, expect, it } from "vitest";
import { RuntimeError } from "../errors.js";
import { graphStreamModesFor, normalizeStreamModes, sseEventName, STREAM_MODES } from "./stream-modes.js";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return RuntimeError.isInstance(err) ? err.code : "other";
  }
  return undefined;
}

describe("normalizeStreamModes", () => {
  it("defaults null, undefined and [] to values", () => {
    expect(normalizeStreamModes(null)).toEqual(["values"]);
    expect(normalizeStreamModes(undefined)).toEqual(["values"]);
    expect(normalizeStreamModes([])).toEqual(["values"]);
  });

  it("accepts a single string and every public mode", () => {
    expect(normalizeStreamModes("updates")).toEqual(["updates"]);
    expect(normalizeStreamModes([...STREAM_MODES])).toEqual([...STREAM_MODES]);
  });

  it("removes duplicates keeping the first occurrence order", () => {
    expect(normalizeStreamModes(["messages-tuple", "values", "messages-tuple", "custom", "values"])).toEqual([
      "messages-tuple",
      "values",
      "custom",
    ]);
  });

  it("rejects unsupported modes naming every one of them", () => {
    expect(() => normalizeStreamModes(["values", "events", "tool", "events"])).toThrow(
      "Unsupported stream mode(s): events, tool",
    );
    expect(codeOf(() => normalizeStreamModes("events"))).toBe("INVALID_ARGUMENT");
  });

  it.each([[5], [[1]], [[null]], [[""]], [{ mode: "values" }], [["VALUES"]], [["values "]]])(
    "rejects the malformed input %j",
    (value) => {
      expect(codeOf(() => normalizeStreamModes(value))).toBe("INVALID_ARGUMENT");
    },
  );
});

describe("graphStreamModesFor", () => {
  it("maps messages-tuple to the graph's messages mode", () => {
    expect(graphStreamModesFor(["messages-tuple"])).toEqual(["messages", "updates"]);
  });

  it("derives legacy messages from the graph's messages and values modes", () => {
    expect(graphStreamModesFor(["messages"])).toEqual(["messages", "values", "updates"]);
  });

  it("keeps the other modes and always watches updates once", () => {
    expect(graphStreamModesFor(["values", "updates", "custom", "debug", "tasks", "checkpoints"])).toEqual([
      "values",
      "updates",
      "custom",
      "debug",
      "tasks",
      "checkpoints",
    ]);
  });
});

describe("sseEventName", () => {
  it("keeps root names bare and joins subgraph namespaces with |", () => {
    expect(sseEventName("values", [])).toBe("values");
    expect(sseEventName("messages", ["outer:1", "inner:2"])).toBe("messages|outer:1|inner:2");
  });
});
