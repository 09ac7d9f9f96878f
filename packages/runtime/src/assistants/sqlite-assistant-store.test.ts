import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteRunStore } from "../runs/sqlite/sqlite-run-store.js";
import { assistantStoreConformance } from "../testing/index.js";
import { expectRuntimeError } from "../testing/run-store/context.js";
import { SqliteAssistantStore } from "./sqlite-assistant-store.js";

function tempDir(): { dir: string; cleanup: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), "assistant-store-"));
  return { dir, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

assistantStoreConformance({
  name: "SqliteAssistantStore",
  makeStore: async () => {
    const { dir, cleanup } = tempDir();
    return { store: new SqliteAssistantStore({ path: join(dir, "runs.sqlite") }), cleanup };
  },
  // Two connections to one file, as two stores of one process (or two processes) would open it.
  makeInstances: async (count) => {
    const { dir, cleanup } = tempDir();
    const stores = Array.from({ length: count }, () => new SqliteAssistantStore({ path: join(dir, "runs.sqlite") }));
    return { stores, cleanup };
  },
  describe,
  it,
  expect,
  beforeEach,
  afterEach,
});

describe("SqliteAssistantStore", () => {
  it("shares the run store's file, keeps its tables apart from the run store's schema version, and reopens", async () => {
    const { dir, cleanup } = tempDir();
    const path = join(dir, "runs.sqlite");
    try {
      const runs = new SqliteRunStore({ path });
      const assistants = new SqliteAssistantStore({ path });
      await runs.createThread({ threadId: "t1" });
      const created = await assistants.create({ assistantId: "a1", graphId: "agent", owner: "alice" });
      await assistants.update("a1", { name: "renamed" }, { owner: "alice" });
      await assistants.close();
      await runs.close();
      const reopenedRuns = new SqliteRunStore({ path });
      const reopened = new SqliteAssistantStore({ path });
      expect(await reopenedRuns.getThread("t1")).toMatchObject({ threadId: "t1" });
      expect(await reopened.get("a1", { owner: "alice" })).toMatchObject({
        createdAt: created.createdAt,
        name: "renamed",
        version: 2,
      });
      await reopened.close();
      await reopenedRuns.close();
    } finally {
      await cleanup();
    }
  });

  it("rejects malformed options with CONFIG_INVALID", () => {
    expect(() => new SqliteAssistantStore({} as never)).toThrow(/exactly one of/);
    expect(() => new SqliteAssistantStore({ path: ":memory:", busyTimeoutMs: -1 })).toThrow(/busyTimeoutMs/);
  });

  it("a closed store fails with CLOSED on every call", async () => {
    const store = new SqliteAssistantStore({ path: ":memory:" });
    await store.close();
    await expectRuntimeError(store.search({}, { owner: "alice" }), "CLOSED");
    await expectRuntimeError(store.count({}, { owner: "alice" }), "CLOSED");
  });
});
