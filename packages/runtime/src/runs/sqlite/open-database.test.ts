/**
 * How `openDatabase` sets up a file the run store opens: WAL, the chosen
 * `synchronous` level (NORMAL unless asked for FULL), foreign keys; a caller's
 * connection keeps its own settings.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../logger.js";
import { openDatabase } from "./open-database.js";

/** SQLite's codes for `PRAGMA synchronous`. */
const NORMAL = 1;
const FULL = 2;

describe("openDatabase", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const open = async (options: { synchronous?: unknown; database?: unknown } = {}): Promise<Database.Database> => {
    const dir = await mkdtemp(join(tmpdir(), "open-database-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const { db } = openDatabase(
      options.database === undefined ? { path: join(dir, "runs.sqlite"), ...options } : options,
      50,
      silentLogger,
    );
    cleanups.push(() => void db.close());
    return db;
  };

  it("opens a file in WAL mode with synchronous NORMAL by default, foreign keys on and the busy timeout set", async () => {
    const db = await open();
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("synchronous", { simple: true })).toBe(NORMAL);
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(db.pragma("busy_timeout", { simple: true })).toBe(50);
  });

  it("fsyncs every commit (synchronous FULL) when asked", async () => {
    const db = await open({ synchronous: "full" });
    expect(db.pragma("synchronous", { simple: true })).toBe(FULL);
    const normal = await open({ synchronous: "normal" });
    expect(normal.pragma("synchronous", { simple: true })).toBe(NORMAL);
  });

  it("rejects an unknown synchronous level with CONFIG_INVALID naming it", async () => {
    await expect(open({ synchronous: "off" })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining('"off"'),
    });
  });

  it("leaves a caller's connection as it was configured", async () => {
    const own = new Database(":memory:");
    own.pragma("synchronous = OFF");
    const db = await open({ database: own });
    expect(db).toBe(own);
    expect(db.pragma("synchronous", { simple: true })).toBe(0);
  });
});
