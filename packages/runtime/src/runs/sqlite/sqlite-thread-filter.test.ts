/**
 * The SQL narrowing of `SqliteRunStore`'s thread search must never drop a
 * match: random metadata and filters (many taken from the documents, so that
 * they match) give the same pages and counts as `MemoryRunStore`, whose
 * containment is checked against PostgreSQL `jsonb @>` in the Postgres tests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "../memory-run-store.js";
import type { ThreadSearchQuery } from "../run-store.js";
import { SqliteRunStore } from "./sqlite-run-store.js";
import type { ThreadStatus } from "../types.js";

let seed = 7;
function random(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  // The high bits: the low bits of this generator repeat with short periods.
  return Math.floor((seed / 2147483648) * n);
}

// Scalars whose SQLite JSON types or text could trip a narrowing: -0, 1e21, 2^53+2, empty and non-ASCII strings.
const SCALARS = [
  0,
  -0,
  1,
  1.5,
  -3,
  1e21,
  2 ** 53 + 2,
  0.1 + 0.2,
  "a",
  "b",
  "",
  "\u00e9",
  "\ud83d\ude00",
  "1",
  true,
  false,
  null,
];
const KEYS = ["k", "l", "", "__proto__", 'q"k', "$.x"];

function value(depth: number): unknown {
  const kind = depth > 2 ? 0 : random(4);
  if (kind <= 1) return SCALARS[random(SCALARS.length)];
  if (kind === 2) return Array.from({ length: random(4) }, () => value(depth + 1));
  return object(depth + 1);
}

function object(depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // defineProperty so that "__proto__" becomes an own key, as JSON.parse makes it.
  for (let i = random(4); i > 0; i--)
    Object.defineProperty(out, KEYS[random(KEYS.length)]!, {
      value: value(depth),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  return out;
}

/** A filter drawn from `doc`: some keys dropped, some arrays thinned, recursively. */
function subset(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter(() => random(2) === 0).map(subset);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      if (random(3) > 0)
        Object.defineProperty(out, k, { value: subset(x), enumerable: true, configurable: true, writable: true });
    return out;
  }
  return v;
}

describe("SqliteRunStore thread search against MemoryRunStore", () => {
  const clock = (): Date => new Date("2026-05-06T07:08:09.010Z");
  let memory: MemoryRunStore;
  let sqlite: SqliteRunStore;
  const docs: Record<string, unknown>[] = [];
  const statuses: ThreadStatus[] = ["idle", "busy", "interrupted", "error"];

  beforeAll(async () => {
    memory = new MemoryRunStore({ now: clock });
    sqlite = new SqliteRunStore({ path: ":memory:", now: clock });
    for (let i = 0; i < 300; i++) {
      const doc = object(0);
      docs.push(doc);
      const threadId = `t-${String(i).padStart(3, "0")}`;
      for (const store of [memory, sqlite]) {
        await store.createThread({ threadId, metadata: doc });
        if (i % 3 === 0) await store.updateThread(threadId, { status: statuses[i % 4]! });
      }
    }
  });
  afterAll(async () => {
    await sqlite.close();
  });

  it("returns the same pages and counts for 400 random filters", async () => {
    let matched = 0;
    for (let i = 0; i < 400; i++) {
      const metadata = (random(3) > 0 ? subset(docs[random(docs.length)]) : object(0)) as Record<string, unknown>;
      const query: ThreadSearchQuery = {
        metadata,
        sortBy: (["threadId", "status", "createdAt", "updatedAt"] as const)[random(4)]!,
        sortOrder: random(2) === 0 ? "asc" : "desc",
        limit: 1 + random(40),
        offset: random(5),
        ...(random(4) === 0 ? { status: statuses[random(4)]! } : {}),
        ...(random(5) === 0
          ? { ids: Array.from({ length: random(30) }, () => `t-${String(random(320)).padStart(3, "0")}`) }
          : {}),
      };
      const expected = (await memory.searchThreads(query)).map((t) => t.threadId);
      expect(
        (await sqlite.searchThreads(query)).map((t) => t.threadId),
        JSON.stringify(query),
      ).toEqual(expected);
      const filter = {
        metadata,
        ...(query.status ? { status: query.status } : {}),
        ...(query.ids ? { ids: query.ids } : {}),
      };
      const count = await memory.countThreads(filter);
      expect(await sqlite.countThreads(filter), JSON.stringify(filter)).toBe(count);
      if (count > 0) matched++;
    }
    // The comparison is only worth something if many filters match.
    expect(matched).toBeGreaterThan(150);
  });

  it("returns the same pages without a metadata filter", async () => {
    for (const sortBy of ["threadId", "status", "createdAt", "updatedAt"] as const) {
      for (const sortOrder of ["asc", "desc"] as const) {
        for (const [limit, offset] of [
          [10, 0],
          [7, 13],
          [1000, 0],
          [5, 298],
        ] as const) {
          const query = { sortBy, sortOrder, limit, offset };
          expect(
            (await sqlite.searchThreads(query)).map((t) => t.threadId),
            JSON.stringify(query),
          ).toEqual((await memory.searchThreads(query)).map((t) => t.threadId));
        }
      }
      expect(await sqlite.countThreads({ status: "error" })).toBe(await memory.countThreads({ status: "error" }));
    }
  });
});
