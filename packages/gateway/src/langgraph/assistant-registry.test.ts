import { describe, expect, it } from "vitest";
import type { GraphFactory } from "@deerflow/runtime";
import { GatewayError } from "../errors.js";
import { AssistantRegistry, type AssistantDefinition } from "./assistant-registry.js";
import type { ThreadStateGraph } from "./state-graph.js";

const graph: GraphFactory = () => ({ stream: async () => (async function* () {})() });
const stateGraph = (): ThreadStateGraph => ({
  getState: async () => ({ values: {}, next: [], config: {}, tasks: [] }),
  updateState: async () => ({}),
  getStateHistory: async function* () {},
});

function def(assistantId: string, graphId: string, extra: Partial<AssistantDefinition> = {}): AssistantDefinition {
  return { assistantId, graphId, graph, stateGraph, ...extra };
}

describe("AssistantRegistry", () => {
  const registry = new AssistantRegistry([
    def("a-1", "agent", { name: "Agent", metadata: { kind: "chat", tier: { level: 1 } } }),
    def("a-2", "agent", { name: "Agent (fast)", metadata: { kind: "chat" } }),
    def("w-1", "worker", { metadata: { kind: "batch" } }),
  ]);

  it("finds by assistant id, and by graph id the first assistant of the graph", () => {
    expect(registry.get("a-2")?.name).toBe("Agent (fast)");
    expect(registry.get("agent")?.assistantId).toBe("a-1");
    expect(registry.get("nope")).toBeUndefined();
    expect(registry.graphs("worker")).toBe(graph);
    expect(registry.graphs("nope")).toBeUndefined();
  });

  it("searches by graph id, name substring and metadata equality, paginated", () => {
    expect(registry.search({ graphId: "agent" }).map((a) => a.assistantId)).toEqual(["a-1", "a-2"]);
    expect(registry.search({ name: "FAST" }).map((a) => a.assistantId)).toEqual(["a-2"]);
    expect(registry.search({ name: "work" }).map((a) => a.assistantId)).toEqual(["w-1"]);
    expect(registry.search({ metadata: { tier: { level: 1 } } }).map((a) => a.assistantId)).toEqual(["a-1"]);
    expect(registry.search({ metadata: { missing: null } })).toEqual([]);
    expect(registry.search({ limit: 1, offset: 1 }).map((a) => a.assistantId)).toEqual(["a-2"]);
    expect(registry.count({ metadata: { kind: "chat" } })).toBe(2);
  });

  it.each([
    [[def("a", "g"), def("a", "h")], /Duplicate assistant id a/],
    [[def("a", "g"), def("g", "h")], /Graph id g is also the id of another assistant/],
    [[def("bad id", "g")], /assistantId "bad id"/],
    [[def("a", "")], /graphId ""/],
    [[{ ...def("a", "g"), stateGraph: undefined as never }], /needs graph and stateGraph/],
  ])("refuses an invalid registry (%#)", (defs, message) => {
    expect(() => new AssistantRegistry(defs)).toThrow(message);
    try {
      new AssistantRegistry(defs);
    } catch (err) {
      expect(GatewayError.isInstance(err) && err.code).toBe("CONFIG_INVALID");
    }
  });
});
