import { describe, expect, it } from "vitest";
import { RuntimeError } from "../errors.js";
import { decodeEntry, encodeData } from "./redis-entries.js";
import { isTransientRedisError } from "./redis-errors.js";

function replyError(message: string): Error {
  const error = new Error(message);
  Object.defineProperty(error, "name", { value: "ReplyError" });
  return error;
}

describe("Redis entry format", () => {
  it("encodes compact JSON; undefined → null; bigint → string; a cycle → INVALID_ARGUMENT", () => {
    expect(encodeData("r", "e", { a: [1, { b: null }] })).toBe('{"a":[1,{"b":null}]}');
    expect(encodeData("r", "e", undefined)).toBe("null");
    expect(encodeData("r", "e", { n: 10n })).toBe('{"n":"10"}');
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    let error: unknown;
    try {
      encodeData("run-9", "values", cyclic);
    } catch (err) {
      error = err;
    }
    expect(RuntimeError.isInstance(error) && error.code).toBe("INVALID_ARGUMENT");
    expect((error as Error).message).toContain('"values" for run "run-9"');
  });

  it("decodes events, end markers and malformed entries leniently", () => {
    expect(decodeEntry(["1-0", ["kind", "event", "event", "values", "data", '{"x":1}']])).toEqual({
      kind: "event",
      id: "1-0",
      event: "values",
      data: { x: 1 },
    });
    expect(decodeEntry(["1-1", ["kind", "end"]])).toEqual({ kind: "end", id: "1-1" });
    expect(decodeEntry(["1-2", ["data", "not json"]])).toEqual({
      kind: "event",
      id: "1-2",
      event: "message",
      data: "not json",
    });
    expect(decodeEntry(["1-3", []])).toEqual({ kind: "event", id: "1-3", event: "message", data: null });
    expect(decodeEntry(["1-4", ["kind", "end", "kind", "event"]])).toEqual({ kind: "end", id: "1-4" });
    expect(decodeEntry(["1-5", ["odd"]])).toEqual({ kind: "event", id: "1-5", event: "message", data: null });
    expect(decodeEntry(["1-6", null])).toEqual({ kind: "event", id: "1-6", event: "message", data: null });
    expect(decodeEntry("garbage")).toBeNull();
    expect(decodeEntry([7, []])).toBeNull();
  });
});

describe("Redis error classification", () => {
  it("retries connection failures and try-again replies, not other replies", () => {
    expect(isTransientRedisError(new Error("Connection is closed."))).toBe(true);
    expect(isTransientRedisError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBe(
      true,
    );
    for (const message of ["LOADING Redis is loading", "TRYAGAIN", "BUSY script", "MASTERDOWN x", "READONLY y"]) {
      expect(isTransientRedisError(replyError(message)), message).toBe(true);
    }
    for (const message of ["WRONGTYPE Operation against a key", "ERR syntax error", "NOSCRIPT"]) {
      expect(isTransientRedisError(replyError(message)), message).toBe(false);
    }
    expect(isTransientRedisError("string")).toBe(false);
  });
});
