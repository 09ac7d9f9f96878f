/**
 * `SqliteRunStore` opened by several processes on one file: the file is
 * migrated once, and admissions and starts serialise across processes (each
 * transaction is `BEGIN IMMEDIATE`, so no process acts on a stale snapshot).
 * Integration test because it spawns processes; it needs no services.
 */
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SqliteRunStore } from "../../src/runs/sqlite/sqlite-run-store.js";
import { useChildProcessRace } from "../support/child-processes.js";
import type { ChildReport } from "../support/runs/sqlite-run-store-child.js";

const CHILD = fileURLToPath(new URL("../support/runs/sqlite-run-store-child.ts", import.meta.url));

describe("SqliteRunStore shared by processes", () => {
  const race = useChildProcessRace("sqlite-run-store-proc-");

  it("3 processes on one new file: one migration, one reject winner per thread, one interrupt survivor, queued runs start in creation order", async () => {
    const path = await race.tempFile("runs.sqlite");
    const rounds = 40;
    const { reports, exitCodes, stderr } = await race.run<ChildReport>(
      CHILD,
      ["a", "b", "c"].map((name) => [path, name, String(rounds)]),
    );
    expect(exitCodes, stderr).toEqual([0, 0, 0]);

    for (const report of reports) {
      expect(report.errors, report.name).toEqual([]);
      expect(report.violations, report.name).toEqual([]);
    }
    const store = new SqliteRunStore({ path });
    try {
      for (let round = 0; round < rounds; round++) {
        const outcomes = reports.map((r) => r.reject[round]).sort();
        expect(outcomes, `reject round ${round}`).toEqual(["THREAD_BUSY", "THREAD_BUSY", "ok"]);
        expect(reports.map((r) => r.interrupt[round])).toEqual(["ok", "ok", "ok"]);
        const runs = await store.listRuns(`interrupt-${round}`);
        expect(
          runs.map((r) => r.status),
          `interrupt round ${round}`,
        ).toEqual(["pending", "interrupted", "interrupted"]);
      }
      const queue = await store.listRuns("queue", { limit: 1000 });
      expect(queue).toHaveLength(3 * rounds);
      expect(queue.every((r) => r.status === "success")).toBe(true);
      // Each process's runs keep its own creation order within the global one.
      for (const report of reports)
        expect(
          queue
            .filter((r) => r.ownerId === report.name)
            .map((r) => r.runId)
            .reverse(),
        ).toEqual(report.queued);
      expect((await store.getThread("queue"))?.status).toBe("idle");
    } finally {
      await store.close();
    }
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma("user_version", { simple: true })).toBe(1);
    } finally {
      raw.close();
    }
  }, 120_000);
});
