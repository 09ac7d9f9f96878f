/**
 * The pool and session logic against a stand-in executor (a plain Node
 * process speaking the real protocol, see test/support/exec/fake-executor.fixture.cjs): retries,
 * failures, idle and release handling, without bubblewrap. The real executor
 * is tested in executor.int.test.ts.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isRunning, waitFor } from "../../support/exec/processes.js";
import { SandboxInit } from "../../../src/exec/sandbox-init.js";
import { ExecutorPool, type ExecutorSlot } from "../../../src/exec/executor/executor-pool.js";
import type { ExecutorCommand } from "../../../src/exec/executor/executor-session.js";
import type { LaunchedExecutor } from "../../../src/exec/executor/launch.js";

const FAKE = fileURLToPath(new URL("../../support/exec/fake-executor.fixture.cjs", import.meta.url));

/** Launches fake executors and remembers their pids. */
function fakeLauncher(mode = "") {
  const pids: number[] = [];
  const launch = async (): Promise<LaunchedExecutor> => {
    const child = spawn(process.execPath, [FAKE], {
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, FAKE_EXECUTOR_MODE: mode },
    });
    const [requests, frames, diagnostics] = child.stdio as unknown as [Writable, Readable, Readable];
    pids.push(child.pid as number);
    return { child, pid: child.pid as number, requests, frames, diagnostics, init: new SandboxInit() };
  };
  return { pids, launch };
}

const command = (argv: string[], extra: Partial<ExecutorCommand> = {}): ExecutorCommand => ({
  argv,
  cwd: "/",
  env: {},
  timeoutMs: 10_000,
  maxOutputBytes: 1024,
  drainGraceMs: 0,
  ...extra,
});

const slot = (key: string, launch: () => Promise<LaunchedExecutor>, sandboxId = key): ExecutorSlot => ({
  key,
  sandboxId,
  launch,
});

describe("ExecutorPool", () => {
  const pools: ExecutorPool[] = [];
  const newPool = (options: ConstructorParameters<typeof ExecutorPool>[0] = {}) => {
    const pool = new ExecutorPool(options);
    pools.push(pool);
    return pool;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it("starts an executor on first use and reuses it", async () => {
    const fake = fakeLauncher();
    const pool = newPool();
    const a = await pool.run(slot("s1", fake.launch), command(["pid"]));
    const b = await pool.run(slot("s1", fake.launch), command(["echo", "hello"]));
    expect(fake.pids).toHaveLength(1);
    expect(a?.stdout.text()).toBe(String(fake.pids[0]));
    expect(b).toMatchObject({ exitCode: 0, timedOut: false, spawnError: null });
    expect(b?.stdout.text()).toBe("hello");
  });

  it("keeps one executor per key", async () => {
    const fake = fakeLauncher();
    const pool = newPool();
    await Promise.all([
      pool.run(slot("s1", fake.launch), command(["pid"])),
      pool.run(slot("s1", fake.launch), command(["pid"])),
      pool.run(slot("s2", fake.launch), command(["pid"])),
    ]);
    expect(fake.pids).toHaveLength(2);
    expect(pool.size).toBe(2);
  });

  it("counts output the executor did not forward", async () => {
    const pool = newPool();
    const outcome = await pool.run(
      slot("s1", fakeLauncher().launch),
      command(["echo", "abcdefgh"], { maxOutputBytes: 3 }),
    );
    expect(outcome?.stdout.text()).toBe(
      "abc\n... [output truncated after 3 of 8 bytes; remaining output discarded] ...",
    );
  });

  it("retries a command its executor never started on a new executor, once", async () => {
    const fake = fakeLauncher();
    const pool = newPool();
    const dir = await mkdtemp(path.join(os.tmpdir(), "exec-pool-"));
    const marker = path.join(dir, "died");
    try {
      // The first executor dies on receipt, before confirming the start; the second runs it.
      const outcome = await pool.run(slot("s1", fake.launch), command(["die-before-start-once", marker]));
      expect(outcome?.stdout.text()).toBe(marker);
      expect(fake.pids).toHaveLength(2);
      // Dying again on the retry is an error, not a third attempt.
      await expect(pool.run(slot("s1", fake.launch), command(["die-before-start"]))).rejects.toMatchObject({
        code: "UNAVAILABLE",
        message: expect.stringContaining("before the command could start"),
      });
      expect(fake.pids).toHaveLength(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fails a started command whose executor died with UNAVAILABLE, and starts a new executor next time", async () => {
    const fake = fakeLauncher();
    const pool = newPool();
    await expect(pool.run(slot("s1", fake.launch), command(["die"]))).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining("stopped while the command was running"),
    });
    const next = await pool.run(slot("s1", fake.launch), command(["echo", "ok"]));
    expect(next?.stdout.text()).toBe("ok");
    expect(fake.pids).toHaveLength(2);
  });

  it("kills an executor that breaks the protocol", async () => {
    const fake = fakeLauncher();
    const pool = newPool();
    await expect(pool.run(slot("s1", fake.launch), command(["garbage"]))).rejects.toMatchObject({
      code: "UNAVAILABLE",
    });
    expect(await waitFor(() => !isRunning(fake.pids[0] as number))).toBe(true);
  });

  it("cancels a running command on abort", async () => {
    const pool = newPool();
    const controller = new AbortController();
    const pending = pool.run(slot("s1", fakeLauncher().launch), command(["hang"], { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
  });

  it("kills an executor that misses a command's deadline and reports the command as timed out", async () => {
    const fake = fakeLauncher();
    const pool = newPool();
    // The fake never answers "hang": the host's deadline (timeout + slack) must end it.
    const outcome = await pool.run(slot("s1", fake.launch), command(["hang"], { timeoutMs: 1, drainGraceMs: 0 }));
    expect(outcome).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL" });
    expect(await waitFor(() => !isRunning(fake.pids[0] as number))).toBe(true);
  }, 30_000);

  it("falls back (undefined) when the executor cannot start, and does not retry the start during the backoff", async () => {
    const fake = fakeLauncher("exit-at-start");
    const pool = newPool();
    expect(await pool.run(slot("s1", fake.launch), command(["pid"]))).toBeUndefined();
    expect(await pool.run(slot("s1", fake.launch), command(["pid"]))).toBeUndefined();
    expect(fake.pids).toHaveLength(1);
  });

  it("gives up on an executor that does not report ready in time", async () => {
    const fake = fakeLauncher("never-ready");
    const pool = newPool({ startTimeoutMs: 200 });
    expect(await pool.run(slot("s1", fake.launch), command(["pid"]))).toBeUndefined();
    expect(await waitFor(() => !isRunning(fake.pids[0] as number))).toBe(true);
  });

  it("stops the executors of a released sandbox only", async () => {
    const fake = fakeLauncher();
    const pool = newPool();
    await pool.run(slot("a", fake.launch, "sandbox-a"), command(["pid"]));
    await pool.run(slot("b", fake.launch, "sandbox-b"), command(["pid"]));
    const [a, b] = fake.pids as [number, number];
    await pool.release("sandbox-a");
    expect(isRunning(a)).toBe(false);
    expect(isRunning(b)).toBe(true);
    await pool.run(slot("a", fake.launch, "sandbox-a"), command(["pid"]));
    expect(fake.pids).toHaveLength(3);
  });

  it("fails a command still running when its sandbox is released", async () => {
    const pool = newPool();
    const pending = pool.run(slot("a", fakeLauncher().launch), command(["hang"]));
    const failed = expect(pending).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining("released"),
    });
    await new Promise((r) => setTimeout(r, 100));
    await pool.release("a");
    await failed;
  });

  it("stops an idle executor after idleMs", async () => {
    const fake = fakeLauncher();
    const pool = newPool({ idleMs: 100 });
    await pool.run(slot("s1", fake.launch), command(["pid"]));
    expect(await waitFor(() => !isRunning(fake.pids[0] as number))).toBe(true);
    expect(pool.size).toBe(0);
  });

  it("stops the least recently used idle executor to stay within maxExecutors", async () => {
    const fake = fakeLauncher();
    const pool = newPool({ maxExecutors: 2 });
    await pool.run(slot("a", fake.launch), command(["pid"]));
    await pool.run(slot("b", fake.launch), command(["pid"]));
    await pool.run(slot("a", fake.launch), command(["pid"]));
    await pool.run(slot("c", fake.launch), command(["pid"]));
    const [a, b, c] = fake.pids as [number, number, number];
    expect(await waitFor(() => !isRunning(b))).toBe(true);
    expect(isRunning(a) && isRunning(c)).toBe(true);
  });

  it("replaces an idle executor that used half of its own CPU limit", async () => {
    const fake = fakeLauncher();
    const pool = newPool();
    // The fake reports 1000 µs of CPU per answer: over half of a 1500 µs limit.
    await pool.run({ ...slot("s1", fake.launch), cpuLimitMicros: 1500 }, command(["pid"]));
    expect(await waitFor(() => !isRunning(fake.pids[0] as number))).toBe(true);
    await pool.run({ ...slot("s1", fake.launch), cpuLimitMicros: 1500 }, command(["pid"]));
    expect(fake.pids).toHaveLength(2);
  });
});
