import { describe, expect, it } from "vitest";
import { LruCache } from "./lru-cache.js";

describe("LruCache", () => {
  it("evicts the least recently used entry beyond capacity and returns it", () => {
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
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([1, undefined, 3]);
  });

  it("replaces an existing key without evicting or growing", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.set("a", 10)).toEqual([]);
    expect(cache.get("a")).toBe(10);
    expect(cache.size).toBe(2);
  });

  it("keeps undefined values and promotes them like any other", () => {
    const cache = new LruCache<string, number | undefined>(2);
    cache.set("u", undefined);
    cache.set("b", 2);
    cache.get("u");
    expect(cache.set("c", 3)).toEqual([["b", 2]]);
    expect(cache.values()).toEqual([undefined, 3]);
  });

  it("lists values least recently used first, deletes and clears", () => {
    const cache = new LruCache<string, number>(3);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    cache.get("a");
    expect(cache.values()).toEqual([2, 3, 1]);
    expect(cache.delete("a")).toBe(true);
    expect(cache.delete("a")).toBe(false);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get("b")).toBeUndefined();
  });

  it("rejects a capacity that is not a positive integer", () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
    expect(() => new LruCache(1.5)).toThrow(RangeError);
    expect(() => new LruCache(Number.NaN)).toThrow(RangeError);
  });
});
