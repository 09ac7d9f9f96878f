import { describe, expect, it } from "vitest";
import { LruCache } from "./lru-cache.js";

describe("LruCache", () => {
  it("evicts the least recently used entry beyond capacity", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.set("c", 3)).toEqual([["a", 1]]);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it("promotes entries on get", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1);
    expect(cache.set("c", 3)).toEqual([["b", 2]]);
    expect(cache.get("a")).toBe(1);
  });

  it("replaces an existing key without evicting", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.set("a", 10)).toEqual([]);
    expect(cache.get("a")).toBe(10);
  });

  it("deletes and clears", () => {
    const cache = new LruCache<string, number>(3);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.delete("a")).toBe(true);
    expect(cache.delete("a")).toBe(false);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("rejects a non-positive capacity", () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
    expect(() => new LruCache(1.5)).toThrow(RangeError);
  });
});
