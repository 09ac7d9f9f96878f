import { describe, expect, it } from "vitest";
import { SubagentError } from "../errors.js";
import { BASH_SUBAGENT_TOOLS, GENERAL_PURPOSE_SUBAGENT } from "./builtins.js";
import { SubagentRegistry } from "./registry.js";

const custom = { description: "Reviews code", systemPrompt: "You review code." };

describe("SubagentRegistry", () => {
  it("lists built-ins with DeerFlow's defaults and hides bash without host shell", () => {
    const registry = new SubagentRegistry();
    expect(registry.list().map((c) => c.name)).toEqual(["general-purpose"]);
    expect(registry.names()).toEqual(["general-purpose", "bash"]);
    const gp = registry.get("general-purpose");
    expect(gp?.maxTurns).toBe(50);
    expect(gp?.timeoutMs).toBe(1_800_000);
    expect(gp?.tools).toBeUndefined();
    expect(gp?.disallowedTools).toContain("task");
    expect(registry.isAvailable("bash")).toBe(false);
  });

  it("shows bash with its shell and file tools when host shell is allowed", () => {
    const registry = new SubagentRegistry({ hostShellAllowed: true });
    expect(registry.list().map((c) => c.name)).toEqual(["general-purpose", "bash"]);
    expect(registry.get("bash")?.tools).toEqual(BASH_SUBAGENT_TOOLS);
  });

  it("applies global overrides to built-ins and per-agent overrides over them", () => {
    const registry = new SubagentRegistry({
      hostShellAllowed: true,
      config: {
        timeoutMs: 60_000,
        maxTurns: 10,
        perAgent: { bash: { timeoutMs: 5_000, maxTurns: 3 } },
        customAgents: { reviewer: custom },
      },
    });
    expect(registry.get("general-purpose")).toMatchObject({ timeoutMs: 60_000, maxTurns: 10 });
    expect(registry.get("bash")).toMatchObject({ timeoutMs: 5_000, maxTurns: 3 });
    // Globals are for built-ins only.
    expect(registry.get("reviewer")).toMatchObject({ timeoutMs: 900_000, maxTurns: 50 });
    expect(GENERAL_PURPOSE_SUBAGENT.timeoutMs).toBe(1_800_000);
  });

  it("adds custom subagents with defaults and always denies task", () => {
    const registry = new SubagentRegistry({
      config: {
        customAgents: {
          reviewer: { ...custom, tools: ["read_file", "task"], disallowedTools: ["web_search"], model: "fast" },
        },
      },
    });
    const reviewer = registry.require("reviewer");
    expect(reviewer).toMatchObject({
      name: "reviewer",
      description: "Reviews code",
      model: "fast",
      tools: ["read_file", "task"],
    });
    expect(reviewer.disallowedTools).toEqual(["task", "web_search"]);
    expect(registry.list().map((c) => c.name)).toEqual(["general-purpose", "reviewer"]);
  });

  it("returns frozen configs", () => {
    const gp = new SubagentRegistry().require("general-purpose");
    expect(Object.isFrozen(gp)).toBe(true);
  });

  it("throws UNKNOWN_SUBAGENT naming the available types", () => {
    const registry = new SubagentRegistry();
    let caught: unknown;
    try {
      registry.require("bash");
    } catch (err) {
      caught = err;
    }
    expect(SubagentError.isInstance(caught) && caught.code).toBe("UNKNOWN_SUBAGENT");
    expect((caught as Error).message).toBe("Unknown subagent type 'bash'. Available: general-purpose");
    expect(registry.get("nope")).toBeUndefined();
  });

  it.each([
    ["a non-hyphen-case name", { Bad_Name: custom }, /hyphen-case/],
    ["an empty description", { reviewer: { ...custom, description: "  " } }, /description must be a non-empty string/],
    ["a missing system prompt", { reviewer: { description: "x" } }, /systemPrompt/],
    ["maxTurns below 1", { reviewer: { ...custom, maxTurns: 0 } }, /maxTurns must be an integer >= 1, got 0/],
    ["a fractional maxTurns", { reviewer: { ...custom, maxTurns: 1.5 } }, /maxTurns/],
    [
      "timeoutMs below 1000",
      { reviewer: { ...custom, timeoutMs: 999 } },
      /timeoutMs must be an integer >= 1000, got 999/,
    ],
    ["tools that are not names", { reviewer: { ...custom, tools: [1] } }, /tools must be a list/],
    ["a custom agent replacing a built-in", { "general-purpose": custom }, /cannot replace a built-in/],
  ])("rejects %s with CONFIG_INVALID", (_label, customAgents, message) => {
    const build = (): SubagentRegistry => new SubagentRegistry({ config: { customAgents: customAgents as never } });
    expect(build).toThrow(message);
    try {
      build();
    } catch (err) {
      expect(SubagentError.isInstance(err) && err.code).toBe("CONFIG_INVALID");
    }
  });

  it("rejects invalid global and per-agent limits", () => {
    expect(() => new SubagentRegistry({ config: { timeoutMs: 0 } })).toThrow(/subagents: timeoutMs/);
    expect(() => new SubagentRegistry({ config: { maxTurns: -1 } })).toThrow(/subagents: maxTurns/);
    expect(() => new SubagentRegistry({ config: { perAgent: { bash: { maxTurns: 0 } } } })).toThrow(
      /perAgent\.bash: maxTurns/,
    );
  });
});
