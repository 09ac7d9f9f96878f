import { describe, expect, it } from "vitest";
import {
  agentConfigOf,
  applyAgentFields,
  checkAgentFields,
  invalidAgentNameText,
  normalizeAgentName,
  parseAgentConfig,
} from "./agent-config.js";

describe("agent names", () => {
  it("are lowercased; anything but letters, digits and hyphens is AGENT_NAME_INVALID with DeerFlow's text", () => {
    expect(normalizeAgentName("My-Agent-2")).toBe("my-agent-2");
    for (const bad of ["my_agent", "a b", "../x", "", "é", 5, null]) {
      expect(() => normalizeAgentName(bad), String(bad)).toThrow(
        expect.objectContaining({ code: "AGENT_NAME_INVALID" }) as Error,
      );
    }
    expect(() => normalizeAgentName("bad/name")).toThrow(invalidAgentNameText("bad/name"));
  });
});

describe("checkAgentFields", () => {
  const code = (fn: () => unknown): string => {
    try {
      fn();
      return "ok";
    } catch (err) {
      return (err as { code: string }).code;
    }
  };

  it("enforces model_settings ranges and refuses extra keys", () => {
    expect(checkAgentFields("a", { model_settings: { temperature: 2, max_tokens: 200_000 } })).toEqual({
      model_settings: { temperature: 2, max_tokens: 200_000 },
    });
    for (const settings of [
      { temperature: -0.1 },
      { temperature: 2.01 },
      { temperature: "1" },
      { max_tokens: 0 },
      { max_tokens: 200_001 },
      { max_tokens: 1.5 },
      { top_p: 0.5 },
      [1],
    ])
      expect(
        code(() => checkAgentFields("a", { model_settings: settings })),
        JSON.stringify(settings),
      ).toBe("AGENT_CONFIG_INVALID");
  });

  it("checks the types of the other fields; null clears, absent stays absent", () => {
    expect(checkAgentFields("a", {})).toEqual({});
    expect(checkAgentFields("a", { model: null, skills: null, description: null })).toEqual({
      model: null,
      skills: null,
      description: "",
    });
    for (const raw of [
      { skills: "all" },
      { tool_groups: [1] },
      { thinking_enabled: "yes" },
      { reasoning_effort: "max" },
      { model: "" },
      { description: 3 },
    ])
      expect(
        code(() => checkAgentFields("a", raw)),
        JSON.stringify(raw),
      ).toBe("AGENT_CONFIG_INVALID");
  });
});

describe("applyAgentFields", () => {
  const current = agentConfigOf("a", {
    description: "d",
    model: "m",
    model_settings: { temperature: 0.5, max_tokens: 100 },
  });

  it("merges model_settings per key: omitted kept, null cleared", () => {
    const raw = { temperature: 1 };
    expect(applyAgentFields(current, checkAgentFields("a", { model_settings: raw }), raw).model_settings).toEqual({
      temperature: 1,
      max_tokens: 100,
    });
    const clear = { max_tokens: null };
    expect(applyAgentFields(current, checkAgentFields("a", { model_settings: clear }), clear).model_settings).toEqual({
      temperature: 0.5,
    });
    expect(applyAgentFields(current, checkAgentFields("a", { model_settings: null }), null).model_settings).toBeNull();
  });

  it("replaces only the given fields", () => {
    const next = applyAgentFields(current, checkAgentFields("a", { skills: [] }));
    expect(next).toMatchObject({ description: "d", model: "m", skills: [], model_settings: current.model_settings });
  });
});

describe("parseAgentConfig", () => {
  it("keeps unmanaged keys in extra and ignores the stored name", () => {
    expect(parseAgentConfig("real", { name: "other", github: { bot_login: "x" } })).toMatchObject({
      name: "real",
      extra: { github: { bot_login: "x" } },
    });
    expect(() => parseAgentConfig("real", ["list"])).toThrow(/must be a mapping/);
  });
});
