import { describe, expect, it } from "vitest";
import { readRunOptions } from "./run-options.js";

describe("readRunOptions: tool_groups", () => {
  it("reads a list of group names from context over configurable; anything else is ignored", () => {
    expect(
      readRunOptions({ context: { tool_groups: ["web"] }, configurable: { tool_groups: ["files"] } }).toolGroups,
    ).toEqual(["web"]);
    expect(readRunOptions({ configurable: { tool_groups: [] } }).toolGroups).toEqual([]);
    expect(readRunOptions({ context: { tool_groups: "web" } }).toolGroups).toBeUndefined();
    expect(readRunOptions({ context: { tool_groups: ["web", 3] } }).toolGroups).toBeUndefined();
    expect(readRunOptions({}).toolGroups).toBeUndefined();
  });
});

describe("readRunOptions: frozen configs", () => {
  it("reads a frozen config (LangChain's per-call runtime) once and shares its frozen options", () => {
    const runtime = Object.freeze({ configurable: { thread_id: "t1", model_name: "a" }, context: { model_name: "b" } });
    const first = readRunOptions(runtime);
    expect(first).toEqual({ threadId: "t1", modelName: "b" });
    expect(readRunOptions(runtime)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // A config that is not frozen is read each time.
    const open = { configurable: { thread_id: "t2" } };
    expect(readRunOptions(open)).not.toBe(readRunOptions(open));
  });
});
