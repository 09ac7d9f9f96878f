/**
 * `SqliteAccountStore` against the account-store conformance kit (a file shared
 * with a `SqliteRunStore`, two instances on one file, a caller's connection
 * with foreign keys off), then what a file adds: sharing the run store's file
 * without touching its schema, durability across reopen, schema versioning.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteRunStore } from "../../runs/sqlite/sqlite-run-store.js";
import { accountStoreConformance } from "../../testing/account-store-conformance.js";
import { expectRuntimeError, newSession, newUser } from "../../testing/account-store/context.js";
import { admission } from "../../testing/run-store/context.js";
import { freshFileStores, tempDir as sqliteTempDir } from "../../../test/support/sqlite-files.js";
import { SqliteAccountStore } from "./sqlite-account-store.js";

const tempDir = () => sqliteTempDir("sqlite-account-store-");

const runner = { describe, it, expect, beforeEach, afterEach };

accountStoreConformance({
  name: "SqliteAccountStore (the run store's file)",
  makeStore: async () => {
    const { dir, cleanup } = await tempDir();
    const runs = new SqliteRunStore({ path: join(dir, "runs.sqlite") });
    const store = new SqliteAccountStore({ path: runs.path });
    return {
      store,
      cleanup: async () => {
        await runs.close();
        await cleanup();
      },
    };
  },
  makeInstances: freshFileStores("sqlite-account-store-", (path) => new SqliteAccountStore({ path })).makeInstances,
  ...runner,
});

accountStoreConformance({
  name: "SqliteAccountStore (caller's connection, foreign keys off)",
  makeStore: async () => {
    const db = new Database(":memory:");
    db.pragma("foreign_keys = OFF");
    return { store: new SqliteAccountStore({ database: db }), cleanup: async () => void db.close() };
  },
  ...runner,
});

describe("SqliteAccountStore", () => {
  let dir: string;
  let removeDir: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup: removeDir } = await tempDir());
  });
  afterEach(async () => {
    await removeDir();
  });

  it("shares the run store's file: its own tables and version table, the run store's user_version untouched", async () => {
    const path = join(dir, "runs.sqlite");
    const runs = new SqliteRunStore({ path });
    const accounts = new SqliteAccountStore({ path });
    try {
      const user = await accounts.createUser(newUser());
      const { run } = await runs.admitRun(admission("thread-1"));
      expect((await runs.getRun(run.runId))?.threadId).toBe("thread-1");
      const db = new Database(path, { readonly: true });
      try {
        expect(db.pragma("user_version", { simple: true })).toBe(1);
        const tables = (
          db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
            name: string;
          }[]
        ).map((t) => t.name);
        expect(tables).toEqual(
          expect.arrayContaining([
            "account_schema_migrations",
            "login_failures",
            "runs",
            "threads",
            "user_api_keys",
            "user_sessions",
            "users",
          ]),
        );
        expect(db.prepare("SELECT version FROM account_schema_migrations").all()).toEqual([{ version: 1 }]);
        expect(db.prepare("SELECT email FROM users").all()).toEqual([{ email: user.email }]);
      } finally {
        db.close();
      }
    } finally {
      await accounts.close();
      await runs.close();
    }
  });

  it("keeps users, sessions and counters across a reopen; setup is idempotent", async () => {
    const path = join(dir, "accounts.sqlite");
    const first = new SqliteAccountStore({ path });
    const user = await first.createFirstAdmin(newUser({ systemRole: "admin" }));
    const session = newSession(user.userId);
    await first.createSession(session);
    await first.close();
    const second = new SqliteAccountStore({ path });
    try {
      await second.setup();
      expect(await second.getUser(user.userId)).toEqual(user);
      expect(await second.getSession(session.sessionId)).toEqual(session);
      await expectRuntimeError(second.createFirstAdmin(newUser({ systemRole: "admin" })), "ALREADY_INITIALIZED");
    } finally {
      await second.close();
    }
  });

  it("leaves a newer account schema unchanged, and fails with CLOSED after close", async () => {
    const path = join(dir, "accounts.sqlite");
    const future = new Database(path);
    future.exec(
      "CREATE TABLE account_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);" +
        "INSERT INTO account_schema_migrations VALUES (99, 'future', '2040-01-01T00:00:00.000Z');",
    );
    future.close();
    const store = new SqliteAccountStore({ path });
    const db = new Database(path, { readonly: true });
    try {
      const users = db.prepare("SELECT name FROM sqlite_master WHERE name = 'users'").all();
      expect(users).toEqual([]);
    } finally {
      db.close();
    }
    await store.close();
    await store.close();
    await expectRuntimeError(store.countUsers(), "CLOSED");
  });

  it("names itself in configuration and open errors", async () => {
    expect(() => new SqliteAccountStore({ path: "" })).toThrow(/SqliteAccountStore path must be/);
    expect(() => new SqliteAccountStore({ path: join(dir, "x.sqlite"), busyTimeoutMs: -1 })).toThrow(
      /SqliteAccountStore busyTimeoutMs/,
    );
    const notSqlite = join(dir, "not.sqlite");
    await writeFile(notSqlite, "plain text, not a database ".repeat(100));
    let error: unknown;
    try {
      new SqliteAccountStore({ path: notSqlite });
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({
      code: "STORE_UNAVAILABLE",
      message: expect.stringContaining("SqliteAccountStore.open"),
    });
  });
});
