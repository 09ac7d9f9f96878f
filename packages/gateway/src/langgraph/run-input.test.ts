import { describe, expect, it } from "vitest";
import type { GraphFactory } from "@deerflow/runtime";
import type { RegisteredAssistant } from "./assistant-registry.js";
import { checkpointIdOf, toCreateRunInput } from "./run-input.js";
import { joinStreamModes } from "./run-admission.js";

const assistant: RegisteredAssistant = {
  assistantId: "a-1",
  graphId: "agent",
  createdAt: "2026-01-01T00:00:00.000Z",
  config: {
    configurable: { model: "m1", temperature: 0 },
    tags: ["base"],
    recursion_limit: 10,
    metadata: { team: "x" },
  },
  context: { locale: "en", mode: "fast" },
  graph: (() => ({})) as unknown as GraphFactory,
  stateGraph: () => ({}) as never,
};

describe("toCreateRunInput", () => {
  it("applies the LangGraph defaults and records the assistant on a created thread", () => {
    expect(toCreateRunInput({ assistant_id: "agent" }, assistant, "t1", "reject", "alice")).toEqual({
      threadId: "t1",
      assistantId: "a-1",
      metadata: {},
      multitaskStrategy: "reject",
      onDisconnect: "continue",
      ifNotExists: "reject",
      threadMetadata: { graph_id: "agent", assistant_id: "a-1" },
      config: {
        configurable: { model: "m1", temperature: 0, user_id: "alice" },
        tags: ["base"],
        recursionLimit: 10,
        metadata: { team: "x" },
      },
      context: { locale: "en", mode: "fast" },
    });
  });

  it("merges the run's config and context over the assistant's", () => {
    const input = toCreateRunInput(
      {
        assistant_id: "agent",
        config: { configurable: { model: "m2" }, tags: ["run"], recursion_limit: 3, metadata: { user: "u" } },
        context: { mode: "deep" },
        metadata: { source: "ui" },
      },
      assistant,
      "t1",
      "create",
      "alice",
    );
    expect(input.config).toEqual({
      configurable: { model: "m2", temperature: 0, user_id: "alice" },
      tags: ["run"],
      recursionLimit: 3,
      metadata: { team: "x", user: "u" },
    });
    expect(input.context).toEqual({ locale: "en", mode: "deep" });
    expect(input.metadata).toEqual({ source: "ui" });
  });

  it("maps modes, node lists, checkpoints and commands; nulls mean absent", () => {
    const input = toCreateRunInput(
      {
        assistant_id: "agent",
        input: null,
        command: { resume: "yes", update: null, goto: ["review"] },
        stream_mode: ["values", "messages-tuple"],
        stream_subgraphs: true,
        interrupt_before: ["*"],
        interrupt_after: ["tools", "model"],
        checkpoint: { checkpoint_id: "c2" },
        checkpoint_id: "c1",
        multitask_strategy: "enqueue",
        on_disconnect: "cancel",
      },
      { ...assistant, config: {}, context: {} },
      "t1",
      "reject",
      "alice",
    );
    expect(input).toMatchObject({
      input: null,
      command: { resume: "yes", goto: ["review"] },
      streamMode: ["values", "messages-tuple"],
      streamSubgraphs: true,
      interruptBefore: "*",
      interruptAfter: ["tools", "model"],
      checkpointId: "c2",
      multitaskStrategy: "enqueue",
      onDisconnect: "cancel",
    });
    expect(input.command).not.toHaveProperty("update");
    expect(input.config).toEqual({ configurable: { user_id: "alice" } });
    expect(input).not.toHaveProperty("context");
  });

  it("writes the caller's user id over the assistant's config and context", () => {
    const operator = {
      ...assistant,
      config: { configurable: { user_id: "operator" } },
      context: { user_id: "operator", locale: "en" },
    };
    const input = toCreateRunInput(
      { assistant_id: "agent", config: { configurable: { user_id: "alice" } } },
      operator,
      "t1",
      "reject",
      "alice",
    );
    expect(input.config?.configurable).toEqual({ user_id: "alice" });
    expect(input.context).toEqual({ user_id: "alice", locale: "en" });
  });

  it("passes durability on, reads checkpoint_during as its older spelling, and leaves it absent otherwise", () => {
    const of = (body: Record<string, unknown>) =>
      toCreateRunInput({ assistant_id: "agent", ...body }, assistant, "t1", "reject", "alice").durability;
    expect(of({ durability: "exit" })).toBe("exit");
    expect(of({ durability: "sync", checkpoint_during: false })).toBe("sync");
    expect(of({ checkpoint_during: false })).toBe("exit");
    expect(of({ checkpoint_during: true })).toBe("async");
    expect(of({ durability: null, checkpoint_during: null })).toBeUndefined();
    expect(of({})).toBeUndefined();
  });

  it("takes checkpoint_id when no checkpoint object names one", () => {
    expect(checkpointIdOf({ assistant_id: "a", checkpoint_id: "c1", checkpoint: { checkpoint_ns: "" } })).toBe("c1");
    expect(checkpointIdOf({ assistant_id: "a", checkpoint: null })).toBeUndefined();
  });
});

describe("joinStreamModes", () => {
  it("accepts everything without a filter", () => {
    expect(joinStreamModes(undefined)).toBeUndefined();
    expect(joinStreamModes([])).toBeUndefined();
  });

  it("reads repeated parameters and JSON lists, and always passes metadata and error", () => {
    const accept = joinStreamModes(['["values","messages-tuple"]', "custom"]);
    expect(
      ["metadata", "error", "values", "messages", "messages|tools:1", "custom"].filter((e) => accept?.(e)),
    ).toHaveLength(6);
    expect(["updates", "debug", "messages/partial"].some((e) => accept?.(e))).toBe(false);
    expect(joinStreamModes(["messages"])?.("messages/partial")).toBe(true);
  });

  it("refuses an unknown mode", () => {
    expect(() => joinStreamModes(["values", "bogus"])).toThrow("Unsupported stream mode");
  });
});
