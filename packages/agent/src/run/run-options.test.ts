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
