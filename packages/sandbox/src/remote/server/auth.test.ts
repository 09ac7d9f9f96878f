import { describe, expect, it } from "vitest";
import { apiKeyMatches } from "./auth.js";

describe("apiKeyMatches", () => {
  it("accepts the exact key", () => {
    expect(apiKeyMatches("k3y", "k3y")).toBe(true);
  });

  it.each([
    ["a different key of the same length", "k3z"],
    ["a prefix", "k3"],
    ["a longer key", "k3yk3y"],
    ["an empty key", ""],
  ])("rejects %s", (_label, presented) => {
    expect(apiKeyMatches(presented, "k3y")).toBe(false);
  });

  it("rejects a missing or repeated header", () => {
    expect(apiKeyMatches(undefined, "k3y")).toBe(false);
    expect(apiKeyMatches(["k3y", "k3y"], "k3y")).toBe(false);
  });
});
