/** The account store beside each kind of run store, its sweep, and its start errors. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryAccountStore, type AccountStore, type Logger } from "@deerflow/runtime";
import { SqliteAccountStore, SqliteRunStore } from "@deerflow/runtime/sqlite";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAccountStore } from "./account-store.js";

/** A logger keeping `[level, message, fields]`. */
function recordingLogger(): { logger: Logger; records: [string, string, unknown][] } {
  const records: [string, string, unknown][] = [];
  const at =
    (level: string) =>
    (fields: unknown, message?: string): void =>
      void records.push([level, message ?? "", fields]);
  const logger = {
    fatal: at("fatal"),
    error: at("error"),
    warn: at("warn"),
    info: at("info"),
    debug: at("debug"),
    trace: at("trace"),
    child: () => logger,
  } as unknown as Logger;
  return { logger, records };
}

const user = { email: "Ada@Example.com", passwordHash: "hash", systemRole: "admin" as const };

describe("createAccountStore", () => {
  let dir: string;
  const opened: AccountStore[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "account-store-"));
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const make = async (runStore: Parameters<typeof createAccountStore>[0]["runStore"], logger?: Logger) => {
    const store = await createAccountStore({
      runStore,
      postgresSchema: "deerflow",
      dataDir: dir,
      logger: logger ?? recordingLogger().logger,
    });
    opened.push(store);
    return store;
  };

  it("memory run store: an in-memory account store", async () => {
    const store = await make({ type: "memory" });
    expect(store).toBeInstanceOf(MemoryAccountStore);
    expect((await store.createFirstAdmin(user)).email).toBe("ada@example.com");
  });

  it("SQLite run store: the accounts go into the run store's own file, which the run store keeps using", async () => {
    const path = join(dir, "runs.sqlite");
    const runs = new SqliteRunStore({ path });
    try {
      const store = await make({ type: "file", path });
      expect(store).toBeInstanceOf(SqliteAccountStore);
      expect((store as SqliteAccountStore).path).toBe(runs.path);
      const admin = await store.createFirstAdmin(user);
      await runs.createThread({ threadId: "thread-1", metadata: {} });
      const reopened = new SqliteAccountStore({ path });
      try {
        expect(await reopened.getUser(admin.userId)).toEqual(admin);
      } finally {
        await reopened.close();
      }
      expect((await runs.getThread("thread-1"))?.threadId).toBe("thread-1");
    } finally {
      await runs.close();
    }
  });

  it("plugin run store: accounts.sqlite in the data folder, with a warning that it is per instance", async () => {
    const { logger, records } = recordingLogger();
    const store = await make({ type: "plugin", use: "./my-store.js", options: {} }, logger);
    expect(store).toBeInstanceOf(SqliteAccountStore);
    expect((store as SqliteAccountStore).path).toBe(join(dir, "accounts.sqlite"));
    expect(records.filter(([level]) => level === "warn").map(([, message]) => message)).toEqual([
      "the run store is a plugin: accounts are kept in a SQLite file of this instance, not shared with others",
    ]);
  });

  it("a SQLite path that cannot be opened stops the start with SERVER_COMPONENT_FAILED naming it", async () => {
    const path = join(dir, "not-a-database.sqlite");
    await writeFile(path, "this is not SQLite ".repeat(200));
    await expect(make({ type: "file", path })).rejects.toMatchObject({
      name: "ServerStartError",
      code: "SERVER_COMPONENT_FAILED",
      message: expect.stringContaining(`SQLite account store (${path}) could not be started`),
    });
  });

  it("sweeps expired sessions periodically, and stops sweeping when the store is closed", async () => {
    const store = await createAccountStore({
      runStore: { type: "memory" },
      postgresSchema: "deerflow",
      dataDir: dir,
      logger: recordingLogger().logger,
      sweepIntervalMs: 10,
    });
    const sweep = vi.spyOn(store, "deleteExpiredSessions");
    await vi.waitFor(() => expect(sweep.mock.calls.length).toBeGreaterThanOrEqual(2));
    await store.close();
    const calls = sweep.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sweep.mock.calls.length).toBe(calls);
    await expect(store.countUsers()).rejects.toMatchObject({ code: "CLOSED" });
  });

  it("sweepIntervalMs 0: no sweep", async () => {
    const store = await createAccountStore({
      runStore: { type: "memory" },
      postgresSchema: "deerflow",
      dataDir: dir,
      logger: recordingLogger().logger,
      sweepIntervalMs: 0,
    });
    opened.push(store);
    const sweep = vi.spyOn(store, "deleteExpiredSessions");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sweep).not.toHaveBeenCalled();
  });
});
