/**
 * `SqliteAccountStore` opened by several processes on one new file: the file
 * is migrated once, exactly one process creates the first admin, each round's
 * email is taken by exactly one, and login failures are counted without loss
 * (every transaction is `BEGIN IMMEDIATE`). Integration test because it
 * spawns processes; it needs no services.
 */
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { useChildProcessRace } from "../support/child-processes.js";
import type { ChildReport } from "../support/accounts/sqlite-account-store-child.js";

const CHILD = fileURLToPath(new URL("../support/accounts/sqlite-account-store-child.ts", import.meta.url));

describe("SqliteAccountStore shared by processes", () => {
  const race = useChildProcessRace("sqlite-account-store-proc-");

  it("3 processes on one new file: one migration, one first admin, one owner per email, no lost failure", async () => {
    const path = await race.tempFile("runs.sqlite");
    const rounds = 15;
    const failures = 10;
    const { reports, exitCodes, stderr } = await race.run<ChildReport>(
      CHILD,
      ["a", "b", "c"].map((name) => [path, name, String(rounds), String(failures)]),
    );
    expect(exitCodes, stderr).toEqual([0, 0, 0]);
    for (const report of reports) expect(report.errors, report.name).toEqual([]);

    expect(reports.map((r) => r.firstAdmin).sort()).toEqual(["ALREADY_INITIALIZED", "ALREADY_INITIALIZED", "ok"]);
    for (let round = 0; round < rounds; round++) {
      expect(reports.map((r) => r.users[round]).sort(), `round ${round}`).toEqual([
        "EMAIL_EXISTS",
        "EMAIL_EXISTS",
        "ok",
      ]);
      const counts = reports.flatMap((r) => r.failures[round] ?? []).sort((x, y) => x - y);
      expect(counts, `failures of round ${round}`).toEqual(Array.from({ length: 3 * failures }, (_, i) => i + 1));
    }
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare("SELECT version FROM account_schema_migrations").all()).toEqual([{ version: 1 }]);
      expect(db.prepare("SELECT count(*) AS n FROM users").get()).toEqual({ n: 1 + rounds });
    } finally {
      db.close();
    }
  }, 120_000);
});
