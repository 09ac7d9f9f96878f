import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import type { Logger } from "../../logger.js";
import { makeFinding } from "../static/catalogue.js";
import { ChatModelModerationScanner } from "./chat-model-scanner.js";

const input = { content: "# Skill\nDo things.\n", location: "demo/SKILL.md", executable: false };

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const noop = (): void => {};
  return { warnings, debug: noop, info: noop, error: noop, warn: (_obj, msg) => void warnings.push(msg) };
}

describe("ChatModelModerationScanner", () => {
  it("returns the model's parsed decision", async () => {
    const model = fakeModel().respond(new AIMessage('{"decision":"allow","reason":"ok"}'));
    expect(await new ChatModelModerationScanner({ model }).moderate(input)).toEqual({
      decision: "allow",
      reason: "ok",
    });
  });

  it("parses fenced replies", async () => {
    const model = fakeModel().respond(new AIMessage('```json\n{"decision":"Warn","reason":"external api"}\n```'));
    expect(await new ChatModelModerationScanner({ model }).moderate(input)).toEqual({
      decision: "warn",
      reason: "external api",
    });
  });

  it("sends the rubric and a prompt with location, executable flag, findings and fenced content", async () => {
    const model = fakeModel().respond(new AIMessage('{"decision":"allow","reason":"ok"}'));
    const finding = makeFinding("network-cleartext-http", { file: "SKILL.md", line: 2, evidence: "http://x.example" });
    await new ChatModelModerationScanner({ model }).moderate({ ...input, executable: true, staticFindings: [finding] });
    const [system, user] = model.calls[0]?.messages ?? [];
    expect(system?.type).toBe("system");
    expect(system?.text).toContain('{"decision":"allow|warn|block","reason":"..."}');
    expect(user?.type).toBe("human");
    expect(user?.text).toBe(
      "Location: demo/SKILL.md\nExecutable: true\nDeterministic SkillScan findings:\n" +
        "- network-cleartext-http (MEDIUM): Skill content references a non-local cleartext HTTP endpoint. at SKILL.md:2. Evidence: http://x.example. " +
        "Remediation: Use HTTPS or document why cleartext local development is required.\n\n" +
        "Review this content:\n-----\n# Skill\nDo things.\n\n-----",
    );
  });

  it("writes None. when there are no static findings", async () => {
    const model = fakeModel().respond(new AIMessage('{"decision":"allow","reason":"ok"}'));
    await new ChatModelModerationScanner({ model }).moderate(input);
    expect(model.calls[0]?.messages[1]?.text).toContain("Deterministic SkillScan findings:\nNone.\n");
  });

  it("blocks on unparseable output and logs it", async () => {
    const logger = recordingLogger();
    const model = fakeModel().respond(new AIMessage("Looks fine to me!"));
    expect(await new ChatModelModerationScanner({ model, logger }).moderate(input)).toEqual({
      decision: "block",
      reason: "Security scan produced unparseable output; manual review required.",
    });
    expect(logger.warnings).toEqual(["Skill moderation produced unparseable output"]);
  });

  it("blocks an invalid decision as unparseable", async () => {
    const model = fakeModel().respond(new AIMessage('{"decision":"approve","reason":"sure"}'));
    expect((await new ChatModelModerationScanner({ model }).moderate(input)).reason).toBe(
      "Security scan produced unparseable output; manual review required.",
    );
  });

  it("blocks executable content when the model call fails", async () => {
    const model = fakeModel().respond(new Error("boom"));
    expect(
      await new ChatModelModerationScanner({ model, failClosed: false }).moderate({ ...input, executable: true }),
    ).toEqual({
      decision: "block",
      reason: "Security scan unavailable for executable content; manual review required.",
    });
  });

  it("blocks other content when the model call fails and fail-closed is on (the default)", async () => {
    const model = fakeModel().respond(new Error("boom"));
    expect(await new ChatModelModerationScanner({ model }).moderate(input)).toEqual({
      decision: "block",
      reason: "Security scan unavailable for skill content; manual review required.",
    });
  });

  it("warns for other content when the model call fails and fail-closed is off", async () => {
    const model = fakeModel().respond(new Error("boom"));
    expect(await new ChatModelModerationScanner({ model, failClosed: false }).moderate(input)).toEqual({
      decision: "warn",
      reason: "Security scan unavailable for non-executable skill content; manual review recommended.",
    });
  });

  it("passes the signal to the model and rethrows an abort instead of judging", async () => {
    const controller = new AbortController();
    const model = fakeModel().respond(new AIMessage('{"decision":"allow","reason":"ok"}'));
    await new ChatModelModerationScanner({ model }).moderate({ ...input, signal: controller.signal });
    expect(model.calls[0]?.options?.signal).toBe(controller.signal);

    controller.abort();
    const aborted = fakeModel().respond(new AIMessage('{"decision":"allow","reason":"ok"}'));
    await expect(
      new ChatModelModerationScanner({ model: aborted }).moderate({ ...input, signal: controller.signal }),
    ).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rethrows when the signal is aborted while the model is answering", async () => {
    const controller = new AbortController();
    const model = fakeModel().respond(() => {
      controller.abort();
      return new Error("request aborted");
    });
    await expect(
      new ChatModelModerationScanner({ model }).moderate({ ...input, executable: true, signal: controller.signal }),
    ).rejects.toMatchObject({ name: "AbortError" });
  });

  it("uses the configured id", () => {
    expect(new ChatModelModerationScanner({ model: fakeModel(), id: "gpt-guard" }).id).toBe("gpt-guard");
    expect(new ChatModelModerationScanner({ model: fakeModel() }).id).toBe("chat-model");
  });
});
