/**
 * `SqliteRunStore` against the run-store conformance kit (a temp file, two
 * instances sharing one file, `:memory:`, a caller's connection), then what a
 * file adds: durability across restarts, schema versioning, locks held by
 * another connection, and unusable paths and files.
 */
import { copyFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RuntimeError } from "../../errors.js";
import { SqliteRunStore } from "./sqlite-run-store.js";
import { runStoreConformance } from "../../testing/run-store-conformance.js";
import { admission, admitRunning, expectRuntimeError } from "../../testing/run-store/context.js";
import { freshFileStores, tempDir as sqliteTempDir } from "../../../test/support/sqlite-files.js";

const tempDir = () => sqliteTempDir("sqlite-run-store-");

const runner = { describe, it, expect, beforeEach, afterEach };

runStoreConformance({
  name: "SqliteRunStore (file)",
  ...freshFileStores("sqlite-run-store-", (path) => new SqliteRunStore({ path })),
  ...runner,
});

runStoreConformance({
  name: "SqliteRunStore (:memory:)",
  makeStore: async () => ({ store: new SqliteRunStore({ path: ":memory:" }) }),
  ...runner,
});

runStoreConformance({
  name: "SqliteRunStore (caller's connection, foreign keys off)",
  makeStore: async () => {
    const db = new Database(":memory:");
    db.pragma("foreign_keys = OFF");
    return { store: new SqliteRunStore({ database: db }), cleanup: async () => void db.close() };
  },
  ...runner,
});

/** Runs `fn` and returns what it threw, or fails when it returned. */
function thrown(fn: () => unknown): RuntimeError {
  try {
    fn();
  } catch (err) {
    if (RuntimeError.isInstance(err)) return err;
    throw new Error(`expected a RuntimeError, got ${String(err)}`);
  }
  throw new Error("expected a RuntimeError, but the call succeeded");
}

describe("SqliteRunStore", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A path for a database file in a fresh temp directory. */
  const freshFile = async (name = "runs.sqlite"): Promise<{ dir: string; path: string }> => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    return { dir, path: join(dir, name) };
  };

  /** Opens a store that the test's cleanup closes. */
  const openStore = (options: ConstructorParameters<typeof SqliteRunStore>[0]): SqliteRunStore => {
    const store = new SqliteRunStore(options);
    cleanups.push(() => store.close());
    return store;
  };

  it("keeps threads, runs and creation order across a restart on the same file", async () => {
    const { path } = await freshFile();
    const first = new SqliteRunStore({ path });
    const thread = await first.createThread({
      threadId: "t1",
      metadata: { owner: "ann", nested: { tags: ["a", "b"] } },
    });
    const running = await admitRunning(first, "t1");
    const { run: queued } = await first.admitRun(
      admission("t1", {
        metadata: { n: 1 },
        kwargs: { input: { q: "\u00e9\ud83d\ude00" }, streamMode: ["values", "updates"] },
      }),
    );
    const { run: done } = await first.admitRun(admission("t2"));
    const finished = await first.finishRun(done.runId, {
      status: "error",
      error: "boom",
      stopReason: "loop_capped",
      threadStatus: "error",
    });
    const cancelRequested = await first.requestCancel(running.runId, "rollback");
    await first.close();

    const second = openStore({ path });
    expect(await second.getRun(running.runId)).toEqual(cancelRequested);
    expect(await second.getRun(queued.runId)).toEqual(queued);
    expect(await second.getRun(done.runId)).toEqual(finished);
    expect(await second.getThread("t1")).toEqual({
      ...thread,
      status: "busy",
      updatedAt: (await second.getThread("t1"))!.updatedAt,
    });
    expect((await second.getThread("t2"))?.status).toBe("error");
    expect((await second.searchThreads({ metadata: { nested: { tags: ["b"] } } })).map((t) => t.threadId)).toEqual([
      "t1",
    ]);
    // A run admitted after the restart is ordered after the ones from before it.
    const { run: later } = await second.admitRun(admission("t1"));
    expect((await second.listRuns("t1")).map((r) => r.runId)).toEqual([later.runId, queued.runId, running.runId]);
    expect(await second.tryStartRun(later.runId)).toMatchObject({ outcome: "blocked", blockedBy: running.runId });
    expect((await second.listActiveRuns()).map((r) => r.runId)).toEqual([running.runId, queued.runId, later.runId]);
  });

  it("keeps committed writes when the process dies without closing (the files as they are on disk, WAL included)", async () => {
    const { dir, path } = await freshFile();
    const live = openStore({ path });
    const { run } = await live.admitRun(admission("t1", { metadata: { k: "v" } }));
    const started = await live.tryStartRun(run.runId);
    // Copy the database and its write-ahead log while the store still has them open, as a crash would leave them.
    const crashed = join(dir, "crashed.sqlite");
    await copyFile(path, crashed);
    await copyFile(`${path}-wal`, `${crashed}-wal`);
    const restarted = openStore({ path: crashed });
    expect(started.outcome).toBe("started");
    expect(await restarted.getRun(run.runId)).toEqual(started.outcome === "started" ? started.run : null);
    expect((await restarted.getThread("t1"))?.status).toBe("busy");
  });

  it("never reuses a deleted run's position: a run admitted after deleting the newest one still sorts last", async () => {
    const { path } = await freshFile();
    const store = openStore({ path });
    const { run: a } = await store.admitRun(admission("t1"));
    const { run: b } = await store.admitRun(admission("t1"));
    await store.finishRun(b.runId, { status: "success", threadStatus: "idle" });
    expect(await store.deleteRun(b.runId)).toBe(true);
    const { run: c } = await store.admitRun(admission("t1"));
    expect((await store.listRuns("t1")).map((r) => r.runId)).toEqual([c.runId, a.runId]);
    expect(await store.tryStartRun(c.runId)).toMatchObject({ outcome: "blocked", blockedBy: a.runId });
  });

  it("writes every timestamp from the injected clock and orders by creation when the clock goes backwards", async () => {
    let now = Date.parse("2026-01-02T03:04:05.678Z");
    const store = openStore({ path: ":memory:", now: () => new Date(now) });
    const { run, thread } = await store.admitRun(admission("t1"));
    expect([run.createdAt, thread.createdAt]).toEqual(["2026-01-02T03:04:05.678Z", "2026-01-02T03:04:05.678Z"]);
    now += 1000;
    const started = await store.tryStartRun(run.runId);
    expect(started.outcome === "started" && started.run.startedAt).toBe("2026-01-02T03:04:06.678Z");
    now += 1000;
    expect((await store.finishRun(run.runId, { status: "success", threadStatus: "idle" }))?.endedAt).toBe(
      "2026-01-02T03:04:07.678Z",
    );
    expect(await store.deleteFinishedRuns(new Date(now))).toBe(0);
    expect(await store.deleteFinishedRuns(new Date(now + 1))).toBe(1);

    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      now -= 60_000;
      ids.push((await store.admitRun(admission("t2"))).run.runId);
    }
    expect((await store.listRuns("t2")).map((r) => r.runId)).toEqual([...ids].reverse());
    expect((await store.listActiveRuns()).map((r) => r.runId)).toEqual(ids);
    expect(await store.tryStartRun(ids[4]!)).toMatchObject({ outcome: "blocked", blockedBy: ids[0] });
  });

  it("creates the schema once, versioned by user_version, with the one-running-run safety index", async () => {
    const { path } = await freshFile();
    const store = openStore({ path });
    await store.setup();
    await store.setup();
    const raw = new Database(path);
    cleanups.push(async () => void raw.close());
    expect(raw.pragma("user_version", { simple: true })).toBe(1);
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    const indexes = raw
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .all();
    expect(indexes).toEqual(
      [
        "runs_active_idx",
        "runs_ended_at_idx",
        "runs_one_running_per_thread",
        "runs_thread_seq_idx",
        "threads_created_at_idx",
      ].map((name) => ({ name })),
    );
    const { run: a } = await store.admitRun(admission("t1"));
    const { run: b } = await store.admitRun(admission("t1"));
    raw.prepare(`UPDATE runs SET status = 'running' WHERE run_id = ?`).run(a.runId);
    expect(() => raw.prepare(`UPDATE runs SET status = 'running' WHERE run_id = ?`).run(b.runId)).toThrowError(
      /UNIQUE constraint failed/,
    );
  });

  it("leaves a file with a newer schema version unchanged and says so", async () => {
    const { path } = await freshFile();
    const raw = new Database(path);
    raw.pragma("user_version = 99");
    raw.close();
    const warnings: Record<string, unknown>[] = [];
    const logger = {
      debug() {},
      info() {},
      error() {},
      warn: (obj: Record<string, unknown>) => void warnings.push(obj),
    };
    const store = openStore({ path, logger });
    await expectRuntimeError(store.getThread("t1"), "STORE_UNAVAILABLE");
    expect(warnings).toContainEqual(expect.objectContaining({ path, current: 99, known: 1 }));
    const check = new Database(path, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(99);
    check.close();
  });

  it("creates missing parent directories", async () => {
    const { dir } = await freshFile();
    const path = join(dir, "a", "b", "runs.sqlite");
    const store = openStore({ path });
    await store.createThread({ threadId: "t1" });
    expect(store.path).toBe(path);
    expect((await stat(path)).isFile()).toBe(true);
  });

  it("fails with STORE_UNAVAILABLE naming the directory when it cannot be created", async () => {
    const { dir } = await freshFile();
    const blocker = join(dir, "not-a-dir");
    await writeFile(blocker, "a regular file");
    const path = join(blocker, "sub", "runs.sqlite");
    const err = thrown(() => new SqliteRunStore({ path }));
    expect(err.code).toBe("STORE_UNAVAILABLE");
    expect(err.message).toContain(join(blocker, "sub"));
    expect(err.message).toContain(path);
    expect(err.cause).toBeDefined();
  });

  it("fails with STORE_UNAVAILABLE naming the path for a file that is not a SQLite database", async () => {
    const { path } = await freshFile();
    await writeFile(
      path,
      Buffer.from("this is not a database, just some text that is long enough to fill a header ".repeat(80)),
    );
    const err = thrown(() => new SqliteRunStore({ path }));
    expect(err.code).toBe("STORE_UNAVAILABLE");
    expect(err.message).toContain(path);
    expect(err.message).toMatch(/not a SQLite database or is corrupt/);
    expect(err.details).toMatchObject({ path, code: "SQLITE_NOTADB" });
    // The file was not touched.
    expect((await readFile(path, "utf8")).startsWith("this is not a database")).toBe(true);
  });

  it("fails with STORE_UNAVAILABLE naming the path when the pages of a store file are damaged", async () => {
    const { path } = await freshFile();
    const store = new SqliteRunStore({ path });
    for (let i = 0; i < 50; i++) await store.createThread({ threadId: `t${i}`, metadata: { blob: "x".repeat(500) } });
    await store.close();
    const bytes = await readFile(path);
    // Keep the 100-byte header (so the file still opens) and wreck every page after the first.
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0xa5, pageSize);
    await writeFile(path, bytes);
    let err: RuntimeError;
    try {
      const reopened = openStore({ path });
      err = await expectRuntimeError(reopened.searchThreads({ limit: 100 }), "STORE_UNAVAILABLE");
    } catch (caught) {
      if (!RuntimeError.isInstance(caught)) throw caught;
      err = caught;
    }
    expect(err.code).toBe("STORE_UNAVAILABLE");
    expect(err.message).toContain(path);
    expect(err.message).toMatch(/corrupt/i);
  });

  it("fails with STORE_UNAVAILABLE naming the path when it is a directory", async () => {
    const { dir } = await freshFile();
    const err = thrown(() => new SqliteRunStore({ path: dir }));
    expect(err.code).toBe("STORE_UNAVAILABLE");
    expect(err.message).toContain(dir);
  });

  it("rejects malformed options with CONFIG_INVALID", async () => {
    const { path } = await freshFile();
    const db = new Database(":memory:");
    cleanups.push(async () => void db.close());
    const bad: unknown[] = [
      {},
      { path: "" },
      { path: 42 },
      { path: "a\u0000b" },
      { path, database: db },
      { path, busyTimeoutMs: -1 },
      { path, busyTimeoutMs: 1.5 },
      { path, synchronous: "off" },
      { database: {} },
      null,
    ];
    for (const options of bad)
      expect(thrown(() => new SqliteRunStore(options as never)).code, JSON.stringify(options)).toBe("CONFIG_INVALID");
    new Database(path).close();
    const ro = new Database(path, { readonly: true });
    cleanups.push(async () => void ro.close());
    expect(thrown(() => new SqliteRunStore({ database: ro })).message).toMatch(/read-only/);
    const closed = new Database(":memory:");
    closed.close();
    expect(thrown(() => new SqliteRunStore({ database: closed })).message).toMatch(/not open/);
  });

  it("keeps :memory: stores private to each instance and writes nothing to disk", async () => {
    const a = openStore({ path: ":memory:" });
    const b = openStore({ path: ":memory:" });
    await a.admitRun(admission("t1"));
    expect(await a.countThreads()).toBe(1);
    expect(await b.countThreads()).toBe(0);
    expect(a.path).toBe(":memory:");
    await expect(stat(":memory:")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("leaves a caller's connection open on close, with the data in it, and fails later calls with CLOSED", async () => {
    const db = new Database(":memory:");
    cleanups.push(async () => void db.close());
    const store = new SqliteRunStore({ database: db });
    await store.admitRun(admission("t1"));
    await store.close();
    await store.close();
    expect(db.open).toBe(true);
    expect(db.prepare(`SELECT count(*) AS n FROM runs`).get()).toEqual({ n: 1 });
    await expectRuntimeError(store.getThread("t1"), "CLOSED");
    await expectRuntimeError(store.admitRun(admission("t1")), "CLOSED");
    await expectRuntimeError(store.setup(), "CLOSED");
    // A second store on the same connection sees the data; a caller who closes the connection gets STORE_UNAVAILABLE.
    const again = new SqliteRunStore({ database: db });
    expect(await again.countThreads()).toBe(1);
    db.close();
    await expectRuntimeError(again.getThread("t1"), "STORE_UNAVAILABLE");
  });

  it("closes a file it opened: a write through another connection right after close sees no lock", async () => {
    const { path } = await freshFile();
    const store = new SqliteRunStore({ path, busyTimeoutMs: 0 });
    await store.createThread({ threadId: "t1" });
    await store.close();
    await expectRuntimeError(store.searchThreads(), "CLOSED");
    const raw = new Database(path, { timeout: 0 });
    cleanups.push(async () => void raw.close());
    raw.exec("BEGIN EXCLUSIVE; COMMIT");
    expect(raw.prepare(`SELECT thread_id FROM threads`).all()).toEqual([{ thread_id: "t1" }]);
  });

  it("fails writes with STORE_UNAVAILABLE while another connection holds the write lock past the busy timeout, and recovers", async () => {
    const { path } = await freshFile();
    const store = openStore({ path, busyTimeoutMs: 20 });
    const { run } = await store.admitRun(admission("t1"));
    const other = new Database(path);
    cleanups.push(async () => void other.close());
    other.exec("BEGIN IMMEDIATE");
    try {
      const err = await expectRuntimeError(store.admitRun(admission("t1")), "STORE_UNAVAILABLE");
      expect(err.message).toContain(path);
      expect(err.message).toMatch(/holds the database lock; gave up after waiting up to 20 ms/);
      expect(err.details).toMatchObject({ operation: "admitRun", code: expect.stringMatching(/^SQLITE_BUSY/) });
      await expectRuntimeError(store.tryStartRun(run.runId), "STORE_UNAVAILABLE");
      // WAL: readers are not blocked by a writer, and the failed calls changed nothing.
      expect((await store.listRuns("t1")).map((r) => r.runId)).toEqual([run.runId]);
      expect((await store.getRun(run.runId))?.status).toBe("pending");
    } finally {
      other.exec("COMMIT");
    }
    expect((await store.tryStartRun(run.runId)).outcome).toBe("started");
  });

  it("finds threads whose metadata is nested deeper than SQLite's JSON parser accepts", async () => {
    const store = openStore({ path: ":memory:" });
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 1200; i++) deep = { d: deep };
    await store.createThread({ threadId: "deep", metadata: { kind: "deep", tree: deep } });
    await store.createThread({ threadId: "flat", metadata: { kind: "flat" } });
    expect((await store.searchThreads({ metadata: { kind: "deep" } })).map((t) => t.threadId)).toEqual(["deep"]);
    expect((await store.searchThreads({ metadata: { tree: { d: { d: {} } } } })).map((t) => t.threadId)).toEqual([
      "deep",
    ]);
    expect((await store.searchThreads({ metadata: { tree: deep } })).map((t) => t.threadId)).toEqual(["deep"]);
    expect(await store.countThreads({ metadata: { kind: "flat" } })).toBe(1);
  });
});
