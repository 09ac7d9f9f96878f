import { RuntimeError } from "@deerflow/runtime";
import { SandboxError } from "@deerflow/sandbox";
import { SkillsError } from "@deerflow/skills";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.js";
import { toErrorResponse } from "./error-response.js";
import {
  ERROR_STATUS_BY_CODE,
  GATEWAY_STATUSES,
  RETRY_AFTER_SECONDS_BY_CODE,
  RUNTIME_STATUSES,
  SANDBOX_STATUSES,
  SKILLS_STATUSES,
  statusForCode,
} from "./status-table.js";

/** Each package's part of the table (exhaustive over its code union at compile time) and how to raise one of its errors. */
const PARTS: ReadonlyArray<[string, Readonly<Record<string, number>>, (code: string) => Error]> = [
  ["gateway", GATEWAY_STATUSES, (code) => new GatewayError(code as never, "message")],
  ["skills", SKILLS_STATUSES, (code) => new SkillsError(code as never, "message")],
  ["runtime", RUNTIME_STATUSES, (code) => new RuntimeError(code as never, "message")],
  ["sandbox", SANDBOX_STATUSES, (code) => new SandboxError(code as never, "message")],
];

describe("the status table", () => {
  it.each(PARTS)("maps every %s error code to an error status, through the error handler too", (_name, part, raise) => {
    for (const [code, status] of Object.entries(part)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(statusForCode(code), code).toBe(status);
      expect(toErrorResponse(raise(code)).statusCode, code).toBe(status);
    }
  });

  it("gives a code shared by several packages the same status in each", () => {
    const seen = new Map<string, number>();
    for (const [name, part] of PARTS) {
      for (const [code, status] of Object.entries(part)) {
        expect(seen.get(code) ?? status, `${code} (${name})`).toBe(status);
        seen.set(code, status);
      }
    }
    expect([...seen.keys()].sort()).toEqual(Object.keys(ERROR_STATUS_BY_CODE).sort());
  });

  it("sends Retry-After only with 503s", () => {
    for (const code of Object.keys(RETRY_AFTER_SECONDS_BY_CODE)) expect(statusForCode(code), code).toBe(503);
  });
});
