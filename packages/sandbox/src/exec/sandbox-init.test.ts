import { describe, expect, it } from "vitest";
import { isDescendant, parseChildPid } from "./sandbox-init.js";

describe("parseChildPid", () => {
  it("reads child-pid from bubblewrap's info JSON", () => {
    expect(parseChildPid('{\n    "child-pid": 15322,\n    "cgroup-namespace": 4026532192\n}')).toBe(15322);
    expect(parseChildPid('{"child-pid":42}')).toBe(42);
  });

  it("waits for a complete value", () => {
    expect(parseChildPid('{\n    "child-pid": 153')).toBeUndefined();
  });

  it.each(['{"child-pid": 1}', '{"child-pid": 0}', '{"child-pid": -5}', "garbage"])("rejects %s", (text) => {
    expect(parseChildPid(text)).toBeUndefined();
  });
});

describe("isDescendant", () => {
  it("follows parent links through /proc", () => {
    expect(isDescendant(process.pid, process.ppid)).toBe(true);
  });

  it("is false for a process that does not descend from the ancestor", () => {
    expect(isDescendant(process.ppid, process.pid)).toBe(false);
    expect(isDescendant(process.pid, process.pid)).toBe(false);
  });

  it("is false for a process that does not exist", () => {
    expect(isDescendant(2 ** 22 + 12345, process.pid)).toBe(false);
  });
});
