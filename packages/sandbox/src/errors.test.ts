import { DeerflowError } from "@deerflow/kernel";
import { describe, expect, it } from "vitest";
import { SandboxError, isDeerflowError } from "./errors.js";

describe("SandboxError", () => {
  it("carries its code, virtual path, cause and name", () => {
    const cause = new Error("ENOENT");
    const err = new SandboxError("NOT_FOUND", "File not found: /mnt/user-data/workspace/a.txt", {
      cause,
      path: "/mnt/user-data/workspace/a.txt",
    });
    expect([err.name, err.code, err.path, err.cause]).toEqual([
      "SandboxError",
      "NOT_FOUND",
      "/mnt/user-data/workspace/a.txt",
      cause,
    ]);
    expect(new SandboxError("TIMEOUT", "too slow").path).toBeUndefined();
  });

  it("is recognised by its own brand and the shared one, and recognises nothing else", () => {
    const err = new SandboxError("READ_ONLY", "read-only mount");
    expect(Symbol.keyFor(SandboxError.brand)).toBe("@deerflow/sandbox/error");
    expect(SandboxError.isInstance(err)).toBe(true);
    expect(isDeerflowError(err)).toBe(true);
    expect(SandboxError.isInstance(new DeerflowError("READ_ONLY", "base only"))).toBe(false);
    expect(SandboxError.isInstance(Object.assign(new Error("x"), { code: "READ_ONLY" }))).toBe(false);
  });
});
