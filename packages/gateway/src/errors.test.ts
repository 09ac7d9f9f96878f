import { DeerflowError } from "@deerflow/kernel";
import { describe, expect, it } from "vitest";
import { GatewayError, isDeerflowError } from "./errors.js";

describe("GatewayError", () => {
  it("carries its code, cause and name, and sends the message as detail unless given one", () => {
    const cause = new Error("EACCES");
    const err = new GatewayError("FILE_NOT_FOUND", "File not found: /mnt/user-data/outputs/x.md", { cause });
    expect([err.name, err.code, err.detail, err.cause]).toEqual([
      "GatewayError",
      "FILE_NOT_FOUND",
      "File not found: /mnt/user-data/outputs/x.md",
      cause,
    ]);
    const issues = [{ path: "/name", message: "must be string" }];
    expect(new GatewayError("VALIDATION_FAILED", "invalid body", { detail: issues }).detail).toBe(issues);
  });

  it("is recognised by its own brand and the shared one, and recognises nothing else", () => {
    const err = new GatewayError("FORBIDDEN", "admins only");
    expect(Symbol.keyFor(GatewayError.brand)).toBe("@deerflow/gateway/error");
    expect(GatewayError.isInstance(err)).toBe(true);
    expect(isDeerflowError(err)).toBe(true);
    expect(GatewayError.isInstance(new DeerflowError("FORBIDDEN", "base only"))).toBe(false);
    expect(GatewayError.isInstance(Object.assign(new Error("x"), { code: "FORBIDDEN" }))).toBe(false);
  });
});
