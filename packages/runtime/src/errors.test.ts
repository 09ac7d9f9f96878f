import { DeerflowError } from "@deerflow/kernel";
import { describe, expect, it } from "vitest";
import { RuntimeError, isDeerflowError } from "./errors.js";

describe("RuntimeError", () => {
  it("carries its code, details, cause and name", () => {
    const cause = new Error("ECONNRESET");
    const err = new RuntimeError("STORE_UNAVAILABLE", "run store unreachable", { cause, details: { attempts: 3 } });
    expect([err.name, err.code, err.message, err.details, err.cause]).toEqual([
      "RuntimeError",
      "STORE_UNAVAILABLE",
      "run store unreachable",
      { attempts: 3 },
      cause,
    ]);
  });

  it("is recognised by its own brand and the shared one, and recognises nothing else", () => {
    const err = new RuntimeError("THREAD_BUSY", "thread t1 has an active run");
    expect(Symbol.keyFor(RuntimeError.brand)).toBe("@deerflow/runtime/error");
    expect(RuntimeError.isInstance(err)).toBe(true);
    expect(isDeerflowError(err)).toBe(true);
    expect(RuntimeError.isInstance(new DeerflowError("THREAD_BUSY", "base only"))).toBe(false);
    expect(RuntimeError.isInstance(Object.assign(new Error("x"), { code: "THREAD_BUSY" }))).toBe(false);
  });
});
