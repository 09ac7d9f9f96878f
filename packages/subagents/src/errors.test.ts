import { DeerflowError } from "@deerflow/kernel";
import { describe, expect, it } from "vitest";
import { SubagentError, isDeerflowError } from "./errors.js";

describe("SubagentError", () => {
  it("carries its code, details, cause and name", () => {
    const cause = new Error("down");
    const err = new SubagentError("MODEL_UNAVAILABLE", "no model", { cause, details: { model: "gpt" } });
    expect([err.name, err.code, err.message, err.details, err.cause]).toEqual([
      "SubagentError",
      "MODEL_UNAVAILABLE",
      "no model",
      { model: "gpt" },
      cause,
    ]);
  });

  it("is recognised by its own brand and the shared one, and recognises nothing else", () => {
    const err = new SubagentError("UNKNOWN_SUBAGENT", "no such subagent");
    expect(Symbol.keyFor(SubagentError.brand)).toBe("@deerflow/subagents/error");
    expect(SubagentError.isInstance(err)).toBe(true);
    expect(isDeerflowError(err)).toBe(true);
    expect(SubagentError.isInstance(new DeerflowError("UNKNOWN_SUBAGENT", "base only"))).toBe(false);
    expect(SubagentError.isInstance(Object.assign(new Error("x"), { code: "UNKNOWN_SUBAGENT" }))).toBe(false);
  });
});
