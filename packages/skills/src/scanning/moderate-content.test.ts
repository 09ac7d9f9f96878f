import { describe, expect, it } from "vitest";
import { SkillsError } from "../errors.js";
import { AllowAllModerationScanner } from "./moderation/allow-all.js";
import { moderateContent } from "./moderate-content.js";
import type { ModerationResult, ModerationScanner } from "./types.js";

const answering = (answer: ModerationResult | Error): ModerationScanner => ({
  id: "fixed",
  moderate: () => (answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer)),
});

async function failure(scanner: ModerationScanner, executable: boolean): Promise<[string, string]> {
  const err = await moderateContent({
    moderation: scanner,
    content: "x",
    location: "demo/scripts/run.py",
    executable,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!SkillsError.isInstance(err)) throw new Error("expected a SkillsError");
  return [err.code, err.message];
}

describe("moderateContent", () => {
  it("returns allow and warn verdicts for non-executable content", async () => {
    const base = { content: "# x", location: "demo/SKILL.md", executable: false };
    expect(await moderateContent({ ...base, moderation: answering({ decision: "warn", reason: "api" }) })).toEqual({
      decision: "warn",
      reason: "api",
    });
    expect(await moderateContent({ ...base, moderation: new AllowAllModerationScanner() })).toEqual({
      decision: "allow",
      reason: "Moderation disabled.",
    });
  });

  it("blocks the write on block", async () => {
    expect(await failure(answering({ decision: "block", reason: "injection" }), false)).toEqual([
      "SECURITY_BLOCKED",
      "Security scan blocked the write: injection",
    ]);
  });

  it("rejects executable content that is not allowed", async () => {
    expect(await failure(answering({ decision: "warn", reason: "network" }), true)).toEqual([
      "SECURITY_BLOCKED",
      "Security scan rejected executable content: network",
    ]);
  });

  it("fails on an invalid decision and on a scanner error", async () => {
    expect(await failure(answering({ decision: "nope" as "allow", reason: "" }), false)).toEqual([
      "SECURITY_SCAN_FAILED",
      "Security scan failed for demo/scripts/run.py: invalid scanner decision 'nope'",
    ]);
    expect(await failure(answering(new Error("timeout")), false)).toEqual([
      "SECURITY_SCAN_FAILED",
      "Security scan failed for demo/scripts/run.py: timeout",
    ]);
  });

  it("fills an empty reason", async () => {
    expect(
      await moderateContent({
        moderation: answering({ decision: "allow", reason: "" }),
        content: "x",
        location: "d/SKILL.md",
        executable: false,
      }),
    ).toEqual({
      decision: "allow",
      reason: "No reason provided.",
    });
  });
});
