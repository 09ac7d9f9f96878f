import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteRunStore } from "../runs/sqlite/sqlite-run-store.js";
import { assistantStoreConformance } from "../testing/index.js";
import { expectRuntimeError } from "../testing/run-store/context.js";
import { freshFileStores, tempDir as sqliteTempDir } from "../../test/support/sqlite-files.js";
import { SqliteAssistantStore } from "./sqlite-assistant-store.js";

const tempDir = () => sqliteTempDir("assistant-store-");

assistantStoreConformance({
  name: "SqliteAssistantStore",
  ...freshFileStores("assistant-store-", (path) => new SqliteAssistantStore({ path })),
  describe,
  it,
  expect,
  beforeEach,
  afterEach,
});

describe("SqliteAssistantStore", () => {
  it("shares the run store's file, keeps its tables apart from the run store's schema version, and reopens", async () => {
    const { dir, cleanup } = await tempDir();
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
