import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistantStoreConformance } from "../testing/index.js";
import { MemoryAssistantStore } from "./memory-assistant-store.js";

assistantStoreConformance({
  name: "MemoryAssistantStore",
  makeStore: async () => ({ store: new MemoryAssistantStore() }),
  describe,
  it,
  expect,
  beforeEach,
  afterEach,
});
