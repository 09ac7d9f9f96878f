import { describe, expect, it } from "vitest";
import { extractJsonObject, parseModerationReply } from "./parse.js";

describe("extractJsonObject", () => {
  it("parses a bare object", () => {
    expect(extractJsonObject('{"decision":"allow","reason":"ok"}')).toEqual({ decision: "allow", reason: "ok" });
  });

  it("strips ```json fences", () => {
    expect(extractJsonObject('```json\n{"decision":"warn"}\n```')).toEqual({ decision: "warn" });
    expect(extractJsonObject('```\n{"decision":"warn"}\n```')).toEqual({ decision: "warn" });
  });

  it("extracts the first balanced object from prose, ignoring braces inside strings", () => {
    expect(
      extractJsonObject('Verdict: {"decision":"block","reason":"uses {curly} and \\"quotes\\""} thanks {'),
    ).toEqual({
      decision: "block",
      reason: 'uses {curly} and "quotes"',
    });
  });

  it("returns undefined when nothing parses", () => {
    expect(extractJsonObject("I think it is fine.")).toBeUndefined();
    expect(extractJsonObject('{"decision": "allow", ')).toBeUndefined();
  });
});

describe("parseModerationReply", () => {
  it("lower-cases the decision", () => {
    expect(parseModerationReply('{"decision":"BLOCK","reason":"exfil"}')).toEqual({
      decision: "block",
      reason: "exfil",
    });
  });

  it("fills a missing or empty reason", () => {
    expect(parseModerationReply('{"decision":"allow"}')).toEqual({ decision: "allow", reason: "No reason provided." });
    expect(parseModerationReply('{"decision":"allow","reason":""}')).toEqual({
      decision: "allow",
      reason: "No reason provided.",
    });
  });

  it("rejects unknown decisions, arrays and non-JSON", () => {
    expect(parseModerationReply('{"decision":"maybe"}')).toBeNull();
    expect(parseModerationReply('[{"decision":"allow"}]')).toBeNull();
    expect(parseModerationReply("allow")).toBeNull();
  });
});
