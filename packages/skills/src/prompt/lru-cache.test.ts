import { describe, expect, it } from "vitest";
import { LruCache } from "./lru-cache.js";

describe("LruCache", () => {
  it("evicts the least recently used entry when full", () => {
    const c = new LruCache<string, number>(2);
    c.set("a", 1);
    c.set("b", 2);
    c.get("a");
    c.set("c", 3);
    expect([c.get("a"), c.get("b"), c.get("c")]).toEqual([1, undefined, 3]);
    expect(c.size).toBe(2);
  });

  it("overwrites an existing key without growing", () => {
    const c = new LruCache<string, number>(2);
    c.set("a", 1);
    c.set("a", 2);
    expect([c.get("a"), c.size]).toEqual([2, 1]);
  });

  it("clears everything", () => {
    const c = new LruCache<string, number>(3);
    c.set("a", 1);
    c.clear();
    expect(c.get("a")).toBeUndefined();
  });
});
