/**
 * StoreMemoryBackend on SqliteStore of @deerflow/runtime (the server's
 * embedded store): the conformance kit on a real SQLite file, and memory that
 * outlives the store instance (a server restart).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteStore } from "@deerflow/runtime/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { StoreMemoryBackend } from "../src/index.js";
import { memoryBackendConformance } from "../src/testing/index.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "deerflow-memory-sqlite-"));
const file = path.join(dir, "store.sqlite");
const shared = new SqliteStore({ path: file });

afterAll(() => {
  shared.close();
  rmSync(dir, { recursive: true, force: true });
});

memoryBackendConformance({
  name: "StoreMemoryBackend on SqliteStore",
  makeBackend: async () => ({ backend: new StoreMemoryBackend({ store: shared }) }),
  describe,
  it,
  expect,
});

describe("StoreMemoryBackend on a SQLite file", () => {
  it("keeps memory across store instances (a restart)", async () => {
    const scope = { userId: "restart.user", agentName: "coder" };
    const fact = await new StoreMemoryBackend({ store: shared }).addFact(scope, { content: "Survives restarts" });
    const reopened = new SqliteStore({ path: file });
    try {
      const doc = await new StoreMemoryBackend({ store: reopened }).get(scope);
      expect(doc.facts.map((f) => f.id)).toEqual([fact.id]);
    } finally {
      reopened.close();
    }
  });
});
