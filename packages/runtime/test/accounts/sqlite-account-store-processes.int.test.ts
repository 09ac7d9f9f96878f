/**
 * `SqliteAccountStore` opened by several processes on one new file: the file
 * is migrated once, exactly one process creates the first admin, each round's
 * email is taken by exactly one, and login failures are counted without loss
 * (every transaction is `BEGIN IMMEDIATE`). Integration test because it
 * spawns processes; it needs no services.
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
import type { ChildReport } from "../support/accounts/sqlite-account-store-child.js";

const CHILD = fileURLToPath(new URL("../support/accounts/sqlite-account-store-child.ts", import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Child {
  process: ChildProcess;
  lines: AsyncIterator<string>;
  stderr: string[];
}

function startChild(args: string[]): Child {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], {
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

describe("SqliteAccountStore shared by processes", () => {
  const children: Child[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.process.exitCode === null) child.process.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("3 processes on one new file: one migration, one first admin, one owner per email, no lost failure", async () => {
    dir = await mkdtemp(join(tmpdir(), "sqlite-account-store-proc-"));
    const path = join(dir, "runs.sqlite");
    const rounds = 15;
    const failures = 10;
    for (const name of ["a", "b", "c"]) children.push(startChild([path, name, String(rounds), String(failures)]));
    for (const child of children) expect(await nextLine(child)).toBe("ready");
    for (const child of children) child.process.stdin!.write("go\n");
    const reports = await Promise.all(children.map(async (child) => JSON.parse(await nextLine(child)) as ChildReport));
    const exitCodes = await Promise.all(
      children.map(async (c) =>
        c.process.exitCode !== null ? c.process.exitCode : once(c.process, "exit").then(([code]) => code as number),
      ),
    );
    expect(exitCodes, children.map((c) => c.stderr.join("")).join("\n")).toEqual([0, 0, 0]);
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
