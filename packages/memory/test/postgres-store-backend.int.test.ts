/**
 * StoreMemoryBackend on PostgresStore (@langchain/langgraph-checkpoint-postgres/store):
 * the conformance kit against a real PostgreSQL, in a schema of its own; and
 * memory written by one store instance read by another (two server instances).
 */
import { randomUUID } from "node:crypto";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreMemoryBackend } from "../src/index.js";
import { memoryBackendConformance } from "../src/testing/index.js";
import { dropSchema, requirePostgres } from "./support/postgres.js";

const url = await requirePostgres();
const schema = `memory_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
let store: PostgresStore;

describe.skipIf(url === null)("PostgresStore", () => {
  beforeAll(async () => {
    store = PostgresStore.fromConnString(url as string, { schema });
    await store.start();
  }, 60_000);

  afterAll(async () => {
    await store?.stop();
    await dropSchema(url as string, schema);
  });

  memoryBackendConformance({
    name: "StoreMemoryBackend on PostgresStore",
    makeBackend: async () => ({ backend: new StoreMemoryBackend({ store }) }),
    describe,
    it,
    expect,
    timeoutScale: 3,
  });

  it("shares memory between two store instances on one database", async () => {
    const second = PostgresStore.fromConnString(url as string, { schema });
    await second.start();
    try {
      const scope = { userId: `shared-${randomUUID().slice(0, 8)}` };
      const fact = await new StoreMemoryBackend({ store }).addFact(scope, { content: "Seen by both" });
      const doc = await new StoreMemoryBackend({ store: second }).get(scope);
      expect(doc.facts.map((f) => f.id)).toEqual([fact.id]);
    } finally {
      await second.stop();
    }
  }, 30_000);
});
