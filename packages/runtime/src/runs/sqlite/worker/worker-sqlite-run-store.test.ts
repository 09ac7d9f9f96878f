/**
 * `WorkerSqliteRunStore` against the run-store conformance kit (a temp file,
 * two instances on one file, `:memory:`), then what the worker thread adds:
 * errors that keep their code and details, a caller's event loop that keeps
 * running while SQLite waits for a lock, a value that cannot cross the thread
 * failing its own call only, close and a stopped worker, the forwarded log,
 * and a process that may exit without closing the store.
 */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Logger } from "../../../logger.js";
import { runStoreConformance } from "../../../testing/run-store-conformance.js";
import { admission, expectRuntimeError } from "../../../testing/run-store/context.js";
import { freshFileStores, tempDir as sqliteTempDir } from "../../../../test/support/sqlite-files.js";
import { SqliteRunStore } from "../sqlite-run-store.js";
import { workerExecArgv } from "../../../internal/worker/start-worker.js";
import { WorkerSqliteRunStore, type WorkerSqliteRunStoreOptions } from "./worker-sqlite-run-store.js";

const tempDir = () => sqliteTempDir("worker-sqlite-run-store-");
const runner = { describe, it, expect, beforeEach, afterEach };

runStoreConformance({
  name: "WorkerSqliteRunStore (file)",
  ...freshFileStores("worker-sqlite-run-store-", (path) => WorkerSqliteRunStore.open({ path })),
  ...runner,
});

runStoreConformance({
  name: "WorkerSqliteRunStore (:memory:)",
  makeStore: async () => ({ store: await WorkerSqliteRunStore.open({ path: ":memory:" }) }),
  ...runner,
});

/** What the worker of `store` is (private: the tests stop it as a crash would). */
const workerOf = (store: WorkerSqliteRunStore) =>
  (store as unknown as { channel: { worker: { terminate(): Promise<number> } } }).channel.worker;

describe("WorkerSqliteRunStore", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const freshFile = async (): Promise<{ dir: string; path: string }> => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    return { dir, path: join(dir, "runs.sqlite") };
  };
  const openStore = async (options: WorkerSqliteRunStoreOptions): Promise<WorkerSqliteRunStore> => {
    const store = await WorkerSqliteRunStore.open(options);
    cleanups.push(() => store.close());
    return store;
  };

  it("shares its file with SqliteRunStore: what one writes, the other reads, and the path is absolute", async () => {
    const { dir } = await freshFile();
    const store = await openStore({ path: join(dir, "nested", "..", "runs.sqlite") });
    expect(store.path).toBe(join(dir, "runs.sqlite"));
    const { run } = await store.admitRun(
      admission("t1", { metadata: { emoji: "\ud83d\ude00", nested: { n: [1, 2] } } }),
    );
    const local = new SqliteRunStore({ path: store.path });
    cleanups.push(() => local.close());
    expect(await local.getRun(run.runId)).toEqual(run);
    await local.updateThread("t1", { metadata: { title: "from the other connection" } });
    expect((await store.getThread("t1"))?.metadata).toEqual({ title: "from the other connection" });
  });

  it("throws SqliteRunStore's errors with their codes and details", async () => {
    const { path } = await freshFile();
    const store = await openStore({ path });
    await expectRuntimeError(store.updateThread("missing", { status: "idle" }), "THREAD_NOT_FOUND");
    const { run } = await store.admitRun(admission("t1"));
    const busy = await store.admitRun(admission("t1", { multitaskStrategy: "reject" })).catch((err: unknown) => err);
    expect(busy).toMatchObject({ code: "THREAD_BUSY", details: { threadId: "t1", activeRunIds: [run.runId] } });
    await expectRuntimeError(store.searchThreads({ limit: 0 }), "INVALID_ARGUMENT");
  });

  it("refuses bad options and unusable files with SqliteRunStore's codes, naming the path", async () => {
    const { dir } = await freshFile();
    await expectRuntimeError(
      WorkerSqliteRunStore.open({ path: join(dir, "a.sqlite"), busyTimeoutMs: -1 }),
      "CONFIG_INVALID",
    );
    await expectRuntimeError(
      WorkerSqliteRunStore.open({ path: join(dir, "a.sqlite"), synchronous: "sometimes" as "full" }),
      "CONFIG_INVALID",
    );
    await expectRuntimeError(
      WorkerSqliteRunStore.open(undefined as unknown as WorkerSqliteRunStoreOptions),
      "CONFIG_INVALID",
    );
    const notSqlite = join(dir, "not.sqlite");
    await writeFile(notSqlite, "this is not a database, just text long enough to have a header".repeat(20));
    const error = await WorkerSqliteRunStore.open({ path: notSqlite }).catch((err: unknown) => err);
    expect(error).toMatchObject({ code: "STORE_UNAVAILABLE" });
    expect((error as Error).message).toContain(notSqlite);
  });

  it("keeps the caller's event loop running while SQLite waits for another connection's lock", async () => {
    const { path } = await freshFile();
    const store = await openStore({ path, busyTimeoutMs: 5_000 });
    await store.createThread({ threadId: "t1" });
    const holder = new Database(path);
    cleanups.push(async () => void holder.close());
    holder.exec("BEGIN IMMEDIATE");
    const write = store.updateThread("t1", { metadata: { waited: true } });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    holder.exec("COMMIT");
    const updated = await write;
    clearInterval(ticker);
    // In-thread, the busy wait would have frozen this loop: no tick until the lock was released.
    expect(ticks).toBeGreaterThanOrEqual(10);
    expect(updated.metadata).toEqual({ waited: true });
  });

  it("fails only the call whose value cannot cross the thread; the calls made with it go through", async () => {
    const { path } = await freshFile();
    const store = await openStore({ path });
    const [good, bad, after] = await Promise.allSettled([
      store.createThread({ threadId: "t1", metadata: { ok: true } }),
      store.createThread({ threadId: "t2", metadata: { callback: () => "not data" } }),
      store.getThread("t1"),
    ]);
    expect(good).toMatchObject({ status: "fulfilled", value: { threadId: "t1" } });
    expect(bad).toMatchObject({ status: "rejected", reason: { code: "INVALID_ARGUMENT" } });
    expect((bad as PromiseRejectedResult).reason.message).toMatch(/^createThread got a value that cannot be stored/);
    expect(after).toMatchObject({ status: "fulfilled", value: { threadId: "t1", metadata: { ok: true } } });
    expect(await store.getThread("t2")).toBeNull();
  });

  it("answers calls in the order they were made, also across batches", async () => {
    const { path } = await freshFile();
    const store = await openStore({ path });
    await store.createThread({ threadId: "t1" });
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 50; i++) {
      writes.push(store.updateThread("t1", { metadata: { [`k${i}`]: i, last: i } }));
      if (i % 7 === 0) await Promise.resolve().then(() => undefined);
    }
    await Promise.all(writes);
    const { metadata } = (await store.getThread("t1"))!;
    expect(metadata["last"]).toBe(49);
    expect(Object.keys(metadata)).toHaveLength(51);
  });

  it("lets the calls made before close finish, then fails later calls with CLOSED; close is idempotent", async () => {
    const { path } = await freshFile();
    const store = await WorkerSqliteRunStore.open({ path });
    const made = store.createThread({ threadId: "t1" });
    const closed = store.close();
    expect(store.close()).toBe(closed);
    await expect(made).resolves.toMatchObject({ threadId: "t1" });
    await closed;
    await expectRuntimeError(store.getThread("t1"), "CLOSED");
    const reopened = await openStore({ path });
    expect(await reopened.getThread("t1")).toMatchObject({ threadId: "t1", status: "idle" });
  });

  it("fails waiting and later calls with STORE_UNAVAILABLE when its worker stops, and logs it", async () => {
    const { path } = await freshFile();
    const lines: { level: string; msg: string }[] = [];
    const logger = capture(lines);
    const store = await openStore({ path, logger });
    const waiting = store.createThread({ threadId: "t1" });
    await workerOf(store).terminate();
    await expectRuntimeError(waiting, "STORE_UNAVAILABLE");
    await expectRuntimeError(store.getThread("t1"), "STORE_UNAVAILABLE");
    expect(lines).toContainEqual({ level: "error", msg: expect.stringContaining("the run store is unavailable") });
    await store.close();
    await expectRuntimeError(store.getThread("t1"), "CLOSED");
  });

  it("forwards the store's log lines to the caller's logger", async () => {
    const { path } = await freshFile();
    const lines: { level: string; msg: string; obj?: Record<string, unknown> }[] = [];
    const store = await openStore({ path, logger: capture(lines) });
    const { run } = await store.admitRun(admission("t1"));
    expect(lines).toContainEqual({
      level: "debug",
      msg: "run admitted",
      obj: expect.objectContaining({ runId: run.runId }),
    });
  });

  it("gives the worker the caller's flags but those naming the caller's own input", () => {
    expect(
      workerExecArgv([
        "--input-type=module",
        "--import",
        "tsx",
        "-e",
        "console.log(1)",
        "--enable-source-maps",
        "--input-type",
        "commonjs",
        "-p",
        "1 + 1",
        "--eval=2",
        "--max-old-space-size=512",
      ]),
    ).toEqual(["--import", "tsx", "--enable-source-maps", "--max-old-space-size=512"]);
  });

  // A child node with tsx takes 1-3 s here; the budget is for a loaded CI machine. A ref'd worker
  // would hold the child until execFile kills it at 45 s, which fails the test.
  it("does not keep the process alive once no call is waiting", { timeout: 60_000 }, async () => {
    const { path } = await freshFile();
    const source = fileURLToPath(new URL("./worker-sqlite-run-store.ts", import.meta.url));
    const script = [
      `const { WorkerSqliteRunStore } = await import(${JSON.stringify(source)});`,
      `const store = await WorkerSqliteRunStore.open({ path: ${JSON.stringify(path)} });`,
      `await store.createThread({ threadId: "t1" });`,
      `console.log("done");`,
    ].join("\n");
    const started = Date.now();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { timeout: 45_000 },
    );
    expect(stdout.trim()).toBe("done");
    expect(Date.now() - started).toBeLessThan(45_000);
    const after = new SqliteRunStore({ path });
    cleanups.push(() => after.close());
    expect(await after.getThread("t1")).toMatchObject({ threadId: "t1" });
  });
});

function capture(lines: { level: string; msg: string; obj?: Record<string, unknown> }[]): Logger {
  const at =
    (level: string) =>
    (obj: Record<string, unknown>, msg: string): void =>
      void lines.push(level === "error" ? { level, msg } : { level, msg, obj });
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
