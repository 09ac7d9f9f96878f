import { describe, expect, it } from "vitest";
import { DeerflowError, isDeerflowError } from "./deerflow-error.js";

class AlphaError extends DeerflowError<"A_ONE" | "A_TWO"> {
  static override readonly brand: symbol = Symbol.for("@deerflow/test/alpha-error");
  override name = "AlphaError";
}

class BetaError extends DeerflowError<"B_ONE"> {
  static override readonly brand: symbol = Symbol.for("@deerflow/test/beta-error");
  override name = "BetaError";
}

/** What a second bundled copy of the package defining AlphaError would hold: another class, the same registry brand. */
class AlphaErrorOtherCopy extends DeerflowError<"A_ONE" | "A_TWO"> {
  static override readonly brand: symbol = Symbol.for("@deerflow/test/alpha-error");
  override name = "AlphaError";
}

class AlphaDetailError extends AlphaError {
  static override readonly brand: symbol = Symbol.for("@deerflow/test/alpha-detail-error");
  override name = "AlphaDetailError";
}

class ForgotBrandError extends AlphaError {
  override name = "ForgotBrandError";
}

describe("DeerflowError", () => {
  it("sets code, message, name, details and cause", () => {
    const cause = new Error("socket closed");
    const err = new AlphaError("A_TWO", "thread t1 is busy", { cause, details: { threadId: "t1" } });
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe("A_TWO");
    expect(err.message).toBe("thread t1 is busy");
    expect(err.name).toBe("AlphaError");
    expect(err.details).toEqual({ threadId: "t1" });
    expect(err.cause).toBe(cause);
    expect(err.stack?.split("\n")[0]).toBe("AlphaError: thread t1 is busy");
  });

  it("leaves cause and details unset when not given", () => {
    const err = new AlphaError("A_ONE", "m");
    expect("cause" in err).toBe(false);
    expect(err.details).toBeUndefined();
  });

  it("isInstance answers for the class's brand only", () => {
    const alpha = new AlphaError("A_ONE", "m");
    const beta = new BetaError("B_ONE", "m");
    expect(AlphaError.isInstance(alpha)).toBe(true);
    expect(AlphaError.isInstance(beta)).toBe(false);
    expect(BetaError.isInstance(alpha)).toBe(false);
    expect(AlphaError.isInstance(new Error("plain"))).toBe(false);
    expect(AlphaError.isInstance({ code: "A_ONE" })).toBe(false);
    expect(AlphaError.isInstance(null)).toBe(false);
    expect(AlphaError.isInstance("A_ONE")).toBe(false);
  });

  it("isInstance recognises an error made by another copy of the class, where instanceof does not", () => {
    const fromOtherCopy = new AlphaErrorOtherCopy("A_TWO", "m");
    expect(fromOtherCopy instanceof AlphaError).toBe(false);
    expect(AlphaError.isInstance(fromOtherCopy)).toBe(true);
    expect(AlphaErrorOtherCopy.isInstance(new AlphaError("A_ONE", "m"))).toBe(true);
  });

  it("brands a subclass's instances with every class up the chain", () => {
    const err = new AlphaDetailError("A_ONE", "m");
    expect(AlphaDetailError.isInstance(err)).toBe(true);
    expect(AlphaError.isInstance(err)).toBe(true);
    expect(DeerflowError.isInstance(err)).toBe(true);
    expect(AlphaDetailError.isInstance(new AlphaError("A_ONE", "m"))).toBe(false);
  });

  it("refuses to construct a subclass that did not declare its own brand", () => {
    expect(() => new ForgotBrandError("A_ONE", "m")).toThrow(/ForgotBrandError must declare its own static brand/);
  });

  it("keeps its brands out of enumeration and JSON", () => {
    const err = new AlphaError("A_ONE", "m");
    expect(Object.getOwnPropertySymbols(err).map((s) => Symbol.keyFor(s))).toEqual([
      "@deerflow/error",
      "@deerflow/test/alpha-error",
    ]);
    expect(Object.keys(err)).not.toContain("brand");
    expect(JSON.stringify(err)).not.toContain("deerflow");
  });
});

describe("isDeerflowError", () => {
  it("is true for every package's errors and false for anything else", () => {
    expect(isDeerflowError(new AlphaError("A_ONE", "m"))).toBe(true);
    expect(isDeerflowError(new BetaError("B_ONE", "m"))).toBe(true);
    expect(isDeerflowError(new Error("plain"))).toBe(false);
    expect(isDeerflowError(Object.assign(new Error("x"), { code: "A_ONE" }))).toBe(false);
    expect(isDeerflowError(undefined)).toBe(false);
  });

  it("recognises the shared brand however the error was made", () => {
    const foreign = new Error("from another realm");
    Object.defineProperty(foreign, Symbol.for("@deerflow/error"), { value: true });
    expect(isDeerflowError(foreign)).toBe(true);
  });
});
