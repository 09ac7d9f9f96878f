import { SkillsError } from "@deerflow/skills";
import { describe, expect, it } from "vitest";
import { GatewayError, isDeerflowError } from "../errors.js";
import { toErrorResponse } from "./error-response.js";
import { ERROR_STATUS_BY_CODE, statusForCode } from "./status-table.js";

/** An error shaped like `@deerflow/runtime`'s, without importing it. */
class RuntimeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RuntimeError";
    Object.defineProperty(this, Symbol.for("@deerflow/error"), { value: true });
  }
}

describe("toErrorResponse", () => {
  it("maps a GatewayError through the table with its detail", () => {
    expect(toErrorResponse(new GatewayError("PATH_TRAVERSAL", "Access denied: path traversal detected"))).toEqual({
      statusCode: 403,
      detail: "Access denied: path traversal detected",
      serverError: false,
    });
  });

  it.each([
    ["SKILL_NOT_FOUND", 404],
    ["SKILL_ALREADY_EXISTS", 409],
    ["SKILL_INVALID", 400],
    ["ARCHIVE_UNSAFE", 400],
    ["HISTORY_NOT_FOUND", 400],
  ] as const)("maps SkillsError %s to %i with its message", (code, status) => {
    expect(toErrorResponse(new SkillsError(code, "msg"))).toEqual({
      statusCode: status,
      detail: "msg",
      serverError: false,
    });
  });

  it.each([
    ["RUN_NOT_FOUND", 404],
    ["THREAD_NOT_FOUND", 404],
    ["ASSISTANT_NOT_FOUND", 404],
    ["THREAD_BUSY", 409],
    ["THREAD_EXISTS", 409],
    ["NOT_CANCELLABLE", 409],
    ["INVALID_ARGUMENT", 422],
  ])("maps runtime code %s to %i", (code, status) => {
    expect(toErrorResponse(new RuntimeError(code, `Run r1: ${code}`))).toEqual({
      statusCode: status,
      detail: `Run r1: ${code}`,
      serverError: false,
    });
  });

  it.each([
    ["STORE_UNAVAILABLE", 5],
    ["BRIDGE_UNAVAILABLE", 5],
    ["SHUTTING_DOWN", 1],
  ] as const)("answers %s with 503, a generic detail and Retry-After %i s", (code, retryAfterSeconds) => {
    expect(toErrorResponse(new RuntimeError(code, "redis://secret@10.0.0.5 unreachable"))).toEqual({
      statusCode: 503,
      detail: "Service Unavailable",
      serverError: true,
      retryAfterSeconds,
    });
  });

  it("accepts an unbranded error named like a @deerflow error", () => {
    const err = Object.assign(new Error("Thread t not found"), { name: "RuntimeError", code: "THREAD_NOT_FOUND" });
    expect(toErrorResponse(err).statusCode).toBe(404);
  });

  it("does not trust the code of an arbitrary error", () => {
    const err = Object.assign(new Error("/srv/secret/path leaked"), { code: "THREAD_NOT_FOUND" });
    expect(toErrorResponse(err)).toEqual({ statusCode: 500, detail: "Internal Server Error", serverError: true });
  });

  it("hides the message of unknown errors", () => {
    expect(toErrorResponse(new Error("ENOENT: /home/me/.ssh/id_rsa"))).toEqual({
      statusCode: 500,
      detail: "Internal Server Error",
      serverError: true,
    });
    expect(toErrorResponse("a string")).toEqual({
      statusCode: 500,
      detail: "Internal Server Error",
      serverError: true,
    });
  });

  it("renders a security block with findings as DeerFlow's structured detail", () => {
    const finding = {
      ruleId: "secret-private-key",
      severity: "CRITICAL",
      file: "k.pem",
      line: 1,
      message: "Private key",
      remediation: "Remove it",
      evidence: "[redacted]",
    };
    const err = new SkillsError("SECURITY_BLOCKED", "Static security scan blocked skill 'x': ...", {
      details: { skillName: "x", findings: [finding] },
    });
    expect(toErrorResponse(err).detail).toEqual({
      message: "Static security scan blocked skill 'x': ...",
      skill_name: "x",
      findings: [
        {
          rule_id: "secret-private-key",
          severity: "CRITICAL",
          file: "k.pem",
          line: 1,
          message: "Private key",
          remediation: "Remove it",
          evidence: "[redacted]",
        },
      ],
    });
  });

  it("maps Fastify's body errors", () => {
    const tooLarge = Object.assign(new Error("too large"), { code: "FST_ERR_CTP_BODY_TOO_LARGE", statusCode: 413 });
    expect(toErrorResponse(tooLarge).statusCode).toBe(413);
    const badJson = Object.assign(new Error("bad"), { code: "FST_ERR_CTP_INVALID_JSON_BODY", statusCode: 400 });
    expect(toErrorResponse(badJson)).toEqual({
      statusCode: 400,
      detail: "Malformed JSON in request body.",
      serverError: false,
    });
    const media = Object.assign(new Error("x"), { code: "FST_ERR_CTP_INVALID_MEDIA_TYPE", statusCode: 415 });
    expect(toErrorResponse(media, "text/plain").detail).toBe("Unsupported Media Type: text/plain");
  });
});

describe("statusForCode", () => {
  it("knows every table entry and nothing from Object.prototype", () => {
    for (const [code, status] of Object.entries(ERROR_STATUS_BY_CODE)) expect(statusForCode(code)).toBe(status);
    expect(statusForCode("toString")).toBeUndefined();
  });
});

describe("GatewayError", () => {
  it("is recognised by its brand and as a @deerflow error", () => {
    const err = new GatewayError("FORBIDDEN", "no");
    expect(GatewayError.isInstance(err)).toBe(true);
    expect(isDeerflowError(err)).toBe(true);
    expect(GatewayError.isInstance(new Error("no"))).toBe(false);
    expect(GatewayError.isInstance(new SkillsError("SKILL_INVALID", "x"))).toBe(false);
  });

  it("carries a structured detail when given one", () => {
    expect(new GatewayError("VALIDATION_FAILED", "bad", { detail: [{ loc: ["body"] }] }).detail).toEqual([
      { loc: ["body"] },
    ]);
  });
});
