/** Threads: create, get, update, search, count, delete. */
import type { ConformanceExpect } from "@deerflow/kernel";
import type { RunStore } from "../../runs/run-store.js";
import type { ThreadRecord } from "../../runs/types.js";
import { admit, admitRunning, expectRuntimeError, ISO_UTC, uid, type AddTest } from "./context.js";

/** Registers the thread tests. */
export function threadTests(test: AddTest, expect: ConformanceExpect): void {
  test("createThread makes an idle thread with ISO-8601 UTC timestamps", async ([store]) => {
    const threadId = uid("t");
    const thread = await store!.createThread({ threadId, metadata: { owner: "ann", tags: ["a"] } });
    expect(thread).toEqual({
      threadId,
      status: "idle",
      metadata: { owner: "ann", tags: ["a"] },
      createdAt: thread.createdAt,
      updatedAt: thread.createdAt,
    });
    expect(thread.createdAt).toMatch(ISO_UTC);
    expect(await store!.getThread(threadId)).toEqual(thread);
    expect((await store!.createThread({ threadId: uid("t") })).metadata).toEqual({});
  });

  test("createThread on a taken id fails with THREAD_EXISTS and changes nothing", async ([store]) => {
    const threadId = uid("t");
    const first = await store!.createThread({ threadId, metadata: { v: 1 } });
    const err = await expectRuntimeError(store!.createThread({ threadId, metadata: { v: 2 } }), "THREAD_EXISTS");
    expect(err.details).toMatchObject({ threadId });
    await expectRuntimeError(store!.createThread({ threadId, ifExists: "raise" }), "THREAD_EXISTS");
    expect(await store!.getThread(threadId)).toEqual(first);
  });

  test("createThread with ifExists do_nothing returns the existing thread unchanged", async ([store]) => {
    const threadId = uid("t");
    const first = await store!.createThread({ threadId, metadata: { v: 1 } });
    expect(await store!.createThread({ threadId, metadata: { v: 2 }, ifExists: "do_nothing" })).toEqual(first);
    expect(await store!.getThread(threadId)).toEqual(first);
    const fresh = uid("t");
    expect(
      (await store!.createThread({ threadId: fresh, metadata: { v: 3 }, ifExists: "do_nothing" })).metadata,
    ).toEqual({ v: 3 });
  });

  test("getThread of a missing thread is null", async ([store]) => {
    expect(await store!.getThread(uid("missing"))).toBeNull();
  });

  test("updateThread merges metadata shallowly and sets the status", async ([store]) => {
    const threadId = uid("t");
    const created = await store!.createThread({ threadId, metadata: { a: 1, nested: { x: 1, y: 2 }, keep: true } });
    const merged = await store!.updateThread(threadId, { metadata: { nested: { x: 3 }, b: "two" } });
    expect(merged.metadata).toEqual({ a: 1, nested: { x: 3 }, keep: true, b: "two" });
    expect(merged.status).toBe("idle");
    expect(merged.createdAt).toBe(created.createdAt);
    expect(merged.updatedAt >= created.updatedAt).toBe(true);
    const statusOnly = await store!.updateThread(threadId, { status: "interrupted" });
    expect(statusOnly).toMatchObject({ status: "interrupted", metadata: merged.metadata });
    const both = await store!.updateThread(threadId, { metadata: { a: null }, status: "error" });
    expect(both).toMatchObject({ status: "error", metadata: { a: null, nested: { x: 3 }, keep: true, b: "two" } });
    expect(await store!.getThread(threadId)).toEqual(both);
  });

  test("updateThread of a missing thread fails with THREAD_NOT_FOUND and creates nothing", async ([store]) => {
    const threadId = uid("missing");
    const err = await expectRuntimeError(store!.updateThread(threadId, { metadata: { a: 1 } }), "THREAD_NOT_FOUND");
    expect(err.details).toMatchObject({ threadId });
    expect(await store!.getThread(threadId)).toBeNull();
  });

  test("searchThreads matches metadata by JSON containment, nested values included", async ([store]) => {
    const p = uid("p");
    const ids = await makeThreads(store!, p, [
      { user: { id: "u1", roles: ["admin", "dev"] }, n: 1, flag: true, none: null, graph_id: "agent" },
      { user: { id: "u1", roles: ["dev"] }, n: 2, graph_id: "agent" },
      { user: { id: "u2", roles: [{ name: "dev", level: 2 }] }, n: 1.5, graph_id: "other", grid: [["x"], "y"] },
    ]);
    const search = async (metadata: Record<string, unknown>): Promise<string[]> =>
      (
        await store!.searchThreads({ metadata: { p, ...metadata }, sortBy: "threadId", sortOrder: "asc", limit: 100 })
      ).map((t) => t.threadId);
    expect(await search({})).toEqual(ids);
    expect(await search({ graph_id: "agent" })).toEqual([ids[0], ids[1]]);
    expect(await search({ user: { id: "u1" } })).toEqual([ids[0], ids[1]]);
    expect(await search({ user: { roles: ["dev"] } })).toEqual([ids[0], ids[1]]);
    expect(await search({ user: { roles: ["admin"] } })).toEqual([ids[0]]);
    expect(await search({ user: { roles: [] } })).toEqual(ids);
    expect(await search({ user: { roles: [{ name: "dev" }] } })).toEqual([ids[2]]);
    expect(await search({ n: 1 })).toEqual([ids[0]]);
    expect(await search({ n: 1.5 })).toEqual([ids[2]]);
    expect(await search({ flag: true })).toEqual([ids[0]]);
    expect(await search({ none: null })).toEqual([ids[0]]);
    // A scalar never matches an array holding it below the top level, and types must agree.
    expect(await search({ user: { roles: "dev" } })).toEqual([]);
    expect(await search({ n: "1" })).toEqual([]);
    expect(await search({ grid: ["y"] })).toEqual([ids[2]]);
    expect(await search({ grid: [["x"]] })).toEqual([ids[2]]);
    expect(await search({ grid: ["x"] })).toEqual([]);
    expect(await search({ grid: [[["x"]]] })).toEqual([]);
    expect(await search({ user: { id: "u1", extra: 1 } })).toEqual([]);
    expect(await search({ missing: null })).toEqual([]);
    expect(await search({ user: "u1" })).toEqual([]);
  });

  test("searchThreads filters by status and ids and combines filters", async ([store]) => {
    const p = uid("p");
    const [a, b, c] = await makeThreads(store!, p, [{ k: 1 }, { k: 1 }, { k: 2 }]);
    await store!.updateThread(b!, { status: "error" });
    const ids = async (query: Parameters<RunStore["searchThreads"]>[0]): Promise<string[]> =>
      (await store!.searchThreads({ sortBy: "threadId", sortOrder: "asc", limit: 100, ...query })).map(
        (t) => t.threadId,
      );
    expect(await ids({ metadata: { p }, status: "idle" })).toEqual([a, c]);
    expect(await ids({ metadata: { p }, status: "error" })).toEqual([b]);
    expect(await ids({ ids: [c!, a!, uid("unknown")] })).toEqual([a, c]);
    expect(await ids({ ids: [] })).toEqual([]);
    expect(await ids({ ids: [a!, b!, c!], metadata: { k: 1 }, status: "idle" })).toEqual([a]);
    expect(await store!.countThreads({ metadata: { p } })).toBe(3);
    expect(await store!.countThreads({ metadata: { p, k: 1 } })).toBe(2);
    expect(await store!.countThreads({ metadata: { p }, status: "error" })).toBe(1);
    expect(await store!.countThreads({ ids: [a!, uid("unknown")] })).toBe(1);
    expect(await store!.countThreads({ ids: [] })).toBe(0);
    expect(await store!.countThreads({ metadata: { p: uid("nothing") } })).toBe(0);
  });

  test("searchThreads sorts by each field in both orders, ties broken by threadId", async ([store]) => {
    const p = uid("p");
    // Ids chosen so code-point order differs from most locale collations.
    const names = ["B", "a", "_x", "b", "\u00e9"].map((n) => `${p}-${n}`);
    for (const threadId of names) await store!.createThread({ threadId, metadata: { p } });
    await store!.updateThread(names[1]!, { status: "error" });
    await store!.updateThread(names[3]!, { status: "busy" });
    const sorted = [...names].sort(codePointOrder);
    const search = (
      sortBy: "threadId" | "status" | "createdAt" | "updatedAt",
      sortOrder?: "asc" | "desc",
    ): Promise<ThreadRecord[]> =>
      store!.searchThreads({ metadata: { p }, sortBy, ...(sortOrder ? { sortOrder } : {}), limit: 100 });
    expect((await search("threadId", "asc")).map((t) => t.threadId)).toEqual(sorted);
    expect((await search("threadId", "desc")).map((t) => t.threadId)).toEqual([...sorted].reverse());
    for (const field of ["status", "createdAt", "updatedAt"] as const) {
      for (const order of ["asc", "desc"] as const) {
        const got = await search(field, order);
        const sign = order === "asc" ? 1 : -1;
        const expected = [...got].sort(
          (x, y) => sign * (codePointOrder(x[field], y[field]) || codePointOrder(x.threadId, y.threadId)),
        );
        expect(
          got.map((t) => t.threadId),
          `${field} ${order}`,
        ).toEqual(expected.map((t) => t.threadId));
        expect(got).toHaveLength(names.length);
      }
    }
    const byStatus = (await search("status", "asc")).map((t) => t.status);
    expect(byStatus).toEqual(["busy", "error", "idle", "idle", "idle"]);
    // Default order: newest first; the last created thread has the greatest (createdAt, threadId) pair.
    const newest = await store!.searchThreads({ metadata: { p }, limit: 100 });
    expect(newest.map((t) => t.threadId)).toEqual((await search("createdAt", "desc")).map((t) => t.threadId));
  });

  test("searchThreads pages with limit and offset (default limit 10)", async ([store]) => {
    const p = uid("p");
    const ids = await makeThreads(
      store!,
      p,
      Array.from({ length: 12 }, () => ({})),
    );
    const page = (limit?: number, offset?: number): Promise<string[]> =>
      store!
        .searchThreads({
          metadata: { p },
          sortBy: "threadId",
          sortOrder: "asc",
          ...(limit === undefined ? {} : { limit }),
          ...(offset === undefined ? {} : { offset }),
        })
        .then((threads) => threads.map((t) => t.threadId));
    expect(await page()).toEqual(ids.slice(0, 10));
    expect(await page(3, 2)).toEqual(ids.slice(2, 5));
    expect(await page(5, 10)).toEqual(ids.slice(10));
    expect(await page(5, 12)).toEqual([]);
    expect(await page(1000)).toEqual(ids);
    expect(await store!.countThreads({ metadata: { p } })).toBe(12);
  });

  test("searchThreads rejects a limit outside 1..1000, a negative offset and unknown sort fields", async ([store]) => {
    for (const limit of [0, -1, 1001, 1.5, Number.NaN])
      await expectRuntimeError(store!.searchThreads({ limit }), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.searchThreads({ offset: -1 }), "INVALID_ARGUMENT");
    await expectRuntimeError(
      store!.searchThreads({ sortBy: "metadata; DROP TABLE threads" as "threadId" }),
      "INVALID_ARGUMENT",
    );
    await expectRuntimeError(store!.searchThreads({ sortOrder: "sideways" as "asc" }), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.searchThreads({ status: "sleeping" as "idle" }), "INVALID_ARGUMENT");
  });

  test("deleteThread removes the thread and all its runs", async ([store]) => {
    const threadId = uid("t");
    const { run } = await admit(store!, threadId);
    await store!.finishRun(run.runId, { status: "success", threadStatus: "idle" });
    const other = uid("t");
    const { run: kept } = await admit(store!, other);
    expect(await store!.deleteThread(threadId)).toBe(true);
    expect(await store!.getThread(threadId)).toBeNull();
    expect(await store!.getRun(run.runId)).toBeNull();
    expect(await store!.listRuns(threadId)).toEqual([]);
    expect(await store!.getRun(kept.runId)).toEqual(kept);
    expect(await store!.deleteThread(threadId)).toBe(false);
    expect(await store!.deleteThread(uid("missing"))).toBe(false);
  });

  test("deleteThread refuses a thread with an active run (THREAD_BUSY) and keeps everything", async ([store]) => {
    const threadId = uid("t");
    const running = await admitRunning(store!, threadId);
    const { run: pending, thread } = await admit(store!, threadId);
    const err = await expectRuntimeError(store!.deleteThread(threadId), "THREAD_BUSY");
    expect(err.details).toMatchObject({ threadId, activeRunIds: [running.runId, pending.runId] });
    expect(await store!.getThread(threadId)).toEqual(thread);
    expect(await store!.getRun(running.runId)).toEqual(running);
    expect(await store!.getRun(pending.runId)).toEqual(pending);
  });

  test("stores hostile but valid metadata keys and values verbatim", async ([store]) => {
    const threadId = uid("t");
    const metadata = JSON.parse(
      '{"__proto__":{"polluted":true},"constructor":"c","":"empty","quote\\"key":"\u00e9\ud83d\ude00","sql":"\'; DROP TABLE threads; --"}',
    ) as Record<string, unknown>;
    await store!.createThread({ threadId, metadata });
    const stored = (await store!.getThread(threadId))!.metadata;
    expect(Object.hasOwn(stored, "__proto__")).toBe(true);
    expect(stored["__proto__"]).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    for (const key of ["constructor", "", 'quote"key', "sql"]) expect(stored[key], key).toBe(metadata[key]);
    const found = await store!.searchThreads({
      metadata: JSON.parse('{"__proto__":{"polluted":true},"sql":"\'; DROP TABLE threads; --"}') as Record<
        string,
        unknown
      >,
    });
    expect(found.map((t) => t.threadId)).toEqual([threadId]);
    const updated = await store!.updateThread(threadId, {
      metadata: JSON.parse('{"__proto__":{"other":1}}') as Record<string, unknown>,
    });
    expect(updated.metadata["__proto__"]).toEqual({ other: 1 });
    expect(updated.metadata["constructor"]).toBe("c");
  });

  test("rejects malformed ids and metadata with INVALID_ARGUMENT", async ([store]) => {
    await expectRuntimeError(store!.createThread({ threadId: "" }), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.createThread({ threadId: "nul\u0000id" }), "INVALID_ARGUMENT");
    await expectRuntimeError(
      store!.createThread({ threadId: uid("t"), metadata: [] as unknown as Record<string, unknown> }),
      "INVALID_ARGUMENT",
    );
    await expectRuntimeError(
      store!.createThread({ threadId: uid("t"), metadata: { bad: "nul\u0000" } }),
      "INVALID_ARGUMENT",
    );
    await expectRuntimeError(
      store!.createThread({ threadId: uid("t"), metadata: { bad: "\ud800" } }),
      "INVALID_ARGUMENT",
    );
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    await expectRuntimeError(store!.createThread({ threadId: uid("t"), metadata: cyclic }), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.getThread(""), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.updateThread(uid("t"), { status: "asleep" as "idle" }), "INVALID_ARGUMENT");
    expect(await store!.countThreads()).toBe(0);
  });
}

/** Creates one thread per metadata object (each also tagged `{ p }`), ids ascending in code-point order. */
async function makeThreads(store: RunStore, p: string, metadata: Record<string, unknown>[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, m] of metadata.entries()) {
    const threadId = `${p}-${String(i).padStart(3, "0")}`;
    await store.createThread({ threadId, metadata: { ...m, p } });
    ids.push(threadId);
  }
  return ids;
}

function codePointOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
