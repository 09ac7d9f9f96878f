import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { AllowAllModerationScanner } from "../scanning/moderation/allow-all.js";
import { ChatModelModerationScanner } from "../scanning/moderation/chat-model-scanner.js";
import { makeFinding } from "../scanning/static/catalogue.js";
import { StaticSkillScanner } from "../scanning/static/scanner.js";
import { moderationScannerConformance, scanReportProblems, skillScannerConformance } from "./scanner-conformance.js";

skillScannerConformance({
  name: "StaticSkillScanner",
  makeScanner: () => new StaticSkillScanner(),
  describe,
  it,
  expect,
});

moderationScannerConformance({
  name: "ChatModelModerationScanner",
  makeScanner: () =>
    new ChatModelModerationScanner({
      model: fakeModel().respond(new AIMessage('{"decision":"allow","reason":"Benign content."}')),
    }),
  describe,
  it,
  expect,
});

moderationScannerConformance({
  name: "ChatModelModerationScanner with a failing model",
  makeScanner: () => new ChatModelModerationScanner({ model: fakeModel().respond(new Error("offline")) }),
  describe,
  it,
  expect,
});

moderationScannerConformance({
  name: "AllowAllModerationScanner",
  makeScanner: () => new AllowAllModerationScanner(),
  describe,
  it,
  expect,
});

describe("scanReportProblems", () => {
  it("accepts a conformant report", () => {
    const finding = makeFinding("secret-cloud-token", { file: "a.md", line: 1, evidence: "t" });
    expect(scanReportProblems({ findings: [finding], blocked: true, scannerErrors: [] })).toEqual([]);
  });

  it("reports unsorted, duplicated, inconsistent and leaking findings", () => {
    const a = makeFinding("network-local-http", { file: "b.md", line: 2, evidence: "token-123" });
    const b = makeFinding("network-cleartext-http", { file: "a.md", line: 1 });
    const leaky = { ...makeFinding("secret-env-assignment", { file: "/abs/c.md", line: 0 }), evidence: "hunter2" };
    const problems = scanReportProblems({ findings: [a, b, a, leaky], blocked: true, scannerErrors: [] }, [
      "token-123",
    ]);
    expect(problems).toEqual([
      "blocked does not equal 'some finding is CRITICAL'",
      "finding 0 leaks a secret",
      "findings not sorted at index 1",
      'duplicate finding ["network-local-http","b.md",2]',
      "finding 2 leaks a secret",
      "findings not sorted at index 3",
      "finding 3 file is not package-relative: /abs/c.md",
      "finding 3 line is not a positive integer",
      "finding 3 (secret-env-assignment) evidence is not [redacted]",
    ]);
  });
});
