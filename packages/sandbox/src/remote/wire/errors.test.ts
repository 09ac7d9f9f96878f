import { describe, expect, it } from "vitest";
import { SandboxError, type SandboxErrorCode } from "../../errors.js";
import { HTTP_STATUS_BY_CODE, sandboxErrorFromWire, sandboxErrorToWire } from "./errors.js";

const codes = Object.keys(HTTP_STATUS_BY_CODE) as SandboxErrorCode[];

describe("sandboxErrorFromWire", () => {
  it.each(codes)("rebuilds %s with the same message and path", (code) => {
    const original = new SandboxError(code, `msg ${code}`, { path: "/mnt/user-data/x" });
    const { statusCode, body } = sandboxErrorToWire(original);
    const rebuilt = sandboxErrorFromWire(statusCode, JSON.parse(JSON.stringify(body)), "POST /v1/x");
    expect([rebuilt.code, rebuilt.message, rebuilt.path]).toEqual([code, `msg ${code}`, "/mnt/user-data/x"]);
  });

  it.each([
    ["UNAUTHORIZED", 401, "CONFIG_INVALID"],
    ["SANDBOX_NOT_FOUND", 404, "UNAVAILABLE"],
    ["ROUTE_NOT_FOUND", 404, "CONFIG_INVALID"],
    ["CONFLICT", 409, "INVALID_ARGUMENT"],
    ["INTERNAL", 500, "UNAVAILABLE"],
  ])("maps the service code %s to a sandbox code", (wire, status, expected) => {
    const err = sandboxErrorFromWire(status, { error: { code: wire, message: "m" } }, "GET /x");
    expect(err.code).toBe(expected);
  });

  it.each([
    [502, "UNAVAILABLE"],
    [504, "TIMEOUT"],
    [413, "TOO_LARGE"],
    [404, "UNAVAILABLE"],
    [401, "CONFIG_INVALID"],
    [418, "INVALID_ARGUMENT"],
  ])("maps a non-JSON answer with status %i by status", (status, expected) => {
    expect(sandboxErrorFromWire(status, undefined, "GET /x").code).toBe(expected);
  });

  it("maps an unknown code by status", () => {
    expect(sandboxErrorFromWire(503, { error: { code: "WHATEVER", message: "m" } }, "GET /x").code).toBe("UNAVAILABLE");
  });

  it("omits the path when the error has none", () => {
    expect(sandboxErrorToWire(new SandboxError("TIMEOUT", "t")).body.error).toEqual({ code: "TIMEOUT", message: "t" });
  });
});
