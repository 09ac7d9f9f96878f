import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { HttpMemoryBackend } from "./http-memory-backend.js";
import { isMemoryBackend } from "./is-memory-backend.js";
import { StoreMemoryBackend } from "./store-memory-backend.js";

describe("isMemoryBackend", () => {
  it("recognises both built-in backends", () => {
    expect(isMemoryBackend(new StoreMemoryBackend({ store: new InMemoryStore() }))).toBe(true);
    expect(isMemoryBackend(new HttpMemoryBackend({ baseUrl: "http://127.0.0.1:1" }))).toBe(true);
  });

  it("refuses what lacks a name or a method", () => {
    const backend = new StoreMemoryBackend({ store: new InMemoryStore() });
    expect(isMemoryBackend({ ...Object.fromEntries(Object.entries(backend)), name: undefined })).toBe(false);
    expect(isMemoryBackend({ name: "x", get: () => undefined })).toBe(false);
    expect(isMemoryBackend(null)).toBe(false);
    expect(isMemoryBackend("backend")).toBe(false);
  });
});
