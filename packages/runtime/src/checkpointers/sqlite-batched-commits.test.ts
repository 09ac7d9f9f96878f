import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { emptyCheckpoint, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createCheckpointer } from "./create-checkpointer.js";
import { batchCommits } from "./sqlite-batched-commits.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "batched-commits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface SaverDb {
  exec(sql: string): unknown;
}

/** Counts the COMMITs the saver's connection executes from now on. */
function countCommits(saver: BaseCheckpointSaver): { readonly count: number } {
  const db = (saver as unknown as { db: SaverDb }).db;
  const exec = db.exec.bind(db);
  const counter = { count: 0 };
  db.exec = (sql: string) => {
    if (sql === "COMMIT") counter.count++;
    return exec(sql);
  };
  return counter;
}

const configOf = (thread: string) => ({ configurable: { thread_id: thread, checkpoint_ns: "" } });
const put = (saver: BaseCheckpointSaver, thread: string) =>
  saver.put(configOf(thread), emptyCheckpoint(), { source: "input", step: -1, parents: {} }, {});
const rowsOf = (file: string): string[] => {
  const reader = new Database(file, { readonly: true });
  try {
    return (
      reader.prepare("SELECT DISTINCT thread_id FROM checkpoints ORDER BY thread_id").all() as { thread_id: string }[]
    ).map((r) => r.thread_id);
  } finally {
    reader.close();
  }
};

describe("the file checkpointer's group commit", () => {
  it("commits the writes of one turn together, each put resolving only once another connection can read it", async () => {
    const file = path.join(dir, "together.db");
    const { checkpointer, close } = await createCheckpointer({ type: "file", path: file });
    const commits = countCommits(checkpointer);
    const threads = Array.from({ length: 10 }, (_, i) => `t${String(i).padStart(2, "0")}`);
    const seen: string[][] = [];
    const [first] = await Promise.all(
      threads.map(async (thread) => {
        const stored = await put(checkpointer, thread);
        seen.push(rowsOf(file));
        return stored;
      }),
    );
    expect(commits.count).toBe(1);
    // Every put saw all ten committed when it resolved.
    expect(seen).toHaveLength(10);
    for (const rows of seen) expect(rows).toEqual(threads);

    await checkpointer.putWrites(first ?? configOf("t00"), [["messages", [new HumanMessage("x")]]], "task-1");
    expect(commits.count).toBe(2);
    await checkpointer.deleteThread("t01");
    expect(rowsOf(file)).not.toContain("t01");
    expect(commits.count).toBe(3);
    await close();
  });

  it("tells every writer of a batch that SQLite rolled back, keeps none of it, and commits the next batch", async () => {
    const file = path.join(dir, "rolled-back.db");
    const { checkpointer, close } = await createCheckpointer({ type: "file", path: file });
    const db = (checkpointer as unknown as { db: SaverDb }).db;
    db.exec(
      `CREATE TRIGGER refuse_bad BEFORE INSERT ON checkpoints WHEN NEW.thread_id = 'bad' BEGIN SELECT RAISE(ROLLBACK, 'bad thread'); END`,
    );
    const [good, bad] = await Promise.allSettled([put(checkpointer, "good"), put(checkpointer, "bad")]);
    expect(bad).toMatchObject({ status: "rejected", reason: { message: "bad thread" } });
    // The good put's row went with the rolled-back transaction: it must not report success.
    expect(good.status).toBe("rejected");
    expect(rowsOf(file)).toEqual([]);

    await put(checkpointer, "later");
    expect(rowsOf(file)).toEqual(["later"]);
    expect(await checkpointer.getTuple(configOf("later"))).toBeDefined();
    await close();
  });

  it("lets a connection read its batch's writes before the commit, and flush commits them at once", async () => {
    const file = path.join(dir, "raw.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (v TEXT)");
    const batches = batchCommits(db);
    expect(batchCommits(db)).toBe(batches); // idempotent
    const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
    insert.run("a");
    db.transaction((v: string) => insert.run(v))("b"); // a savepoint inside the batch
    const committed = batches.committed();
    expect(db.inTransaction).toBe(true);
    expect(db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 2 });
    const reader = new Database(file, { readonly: true });
    expect(reader.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
    batches.flush();
    await committed;
    expect(db.inTransaction).toBe(false);
    expect(reader.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 2 });
    // No batch open: committed() settles at once, and a read opens none.
    await batches.committed();
    db.prepare("SELECT count(*) AS n FROM t").get();
    expect(db.inTransaction).toBe(false);
    reader.close();
    db.close();
  });

  it("commits while a test's fake timers hold setImmediate back", async () => {
    const file = path.join(dir, "fake-timers.db");
    const { checkpointer, close } = await createCheckpointer({ type: "file", path: file });
    vi.useFakeTimers();
    try {
      await put(checkpointer, "faked");
    } finally {
      vi.useRealTimers();
    }
    expect(rowsOf(file)).toEqual(["faked"]);
    await close();
  });

  it("lets two checkpointers on one file in this process take turns instead of waiting on the busy timeout", async () => {
    const file = path.join(dir, "two-handles.db");
    const first = await createCheckpointer({ type: "file", path: file });
    const second = await createCheckpointer({ type: "file", path: file });
    const started = performance.now();
    const threads = ["a1", "b1", "a2", "b2"];
    await Promise.all(threads.map((t) => put(t.startsWith("a") ? first.checkpointer : second.checkpointer, t)));
    // Waiting on SQLite's busy timeout (5 s) would block the event loop and fail with SQLITE_BUSY.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(rowsOf(file)).toEqual(threads.sort());
    await first.close();
    await put(second.checkpointer, "c1");
    expect(rowsOf(file)).toContain("c1");
    await second.close();
  });

  it("flushes the open batch when the checkpointer closes", async () => {
    const file = path.join(dir, "closing.db");
    const { checkpointer, close } = await createCheckpointer({ type: "file", path: file });
    const db = (checkpointer as unknown as { db: Database.Database }).db;
    // A write already executed in this turn (as a saver's statement would be), its commit not yet due.
    db.prepare(
      "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, type, checkpoint, metadata) VALUES ('kept', '', 'c1', 'json', '{}', '{}')",
    ).run();
    expect(db.inTransaction).toBe(true);
    await close();
    expect(rowsOf(file)).toEqual(["kept"]);
  });
});
