/**
 * `SqliteRunStore` opened by several processes on one file: the file is
 * migrated once, and admissions and starts serialise across processes (each
 * transaction is `BEGIN IMMEDIATE`, so no process acts on a stale snapshot).
 * Integration test because it spawns processes; it needs no services.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteRunStore } from "../../src/runs/sqlite/sqlite-run-store.js";
import type { ChildReport } from "../support/runs/sqlite-run-store-child.js";

const CHILD = fileURLToPath(new URL("../support/runs/sqlite-run-store-child.ts", import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** A child process and the lines it printed so far, read as they come. */
interface Child {
  process: ChildProcess;
  lines: AsyncIterator<string>;
  stderr: string[];
}

function startChild(path: string, name: string, rounds: number): Child {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, path, name, String(rounds)], {
    cwd: PACKAGE_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  return { process: child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator](), stderr };
}

async function nextLine(child: Child): Promise<string> {
  const { value, done } = await child.lines.next();
  if (done) throw new Error(`child exited early: ${child.stderr.join("")}`);
  return value;
}

describe("SqliteRunStore shared by processes", () => {
  const children: Child[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.process.exitCode === null) child.process.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("3 processes on one new file: one migration, one reject winner per thread, one interrupt survivor, queued runs start in creation order", async () => {
    dir = await mkdtemp(join(tmpdir(), "sqlite-run-store-proc-"));
    const path = join(dir, "runs.sqlite");
    const rounds = 40;
    for (const name of ["a", "b", "c"]) children.push(startChild(path, name, rounds));
    for (const child of children) expect(await nextLine(child)).toBe("ready");
    for (const child of children) child.process.stdin!.write("go\n");
    const reports = await Promise.all(children.map(async (child) => JSON.parse(await nextLine(child)) as ChildReport));
    const exitCodes = await Promise.all(
      children.map(async (c) =>
        c.process.exitCode !== null ? c.process.exitCode : once(c.process, "exit").then(([code]) => code as number),
      ),
    );
    expect(exitCodes, children.map((c) => c.stderr.join("")).join("\n")).toEqual([0, 0, 0]);

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
