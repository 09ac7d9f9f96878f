/**
 * The sandbox executor against real bubblewrap: one long-lived executor per
 * sandbox, restarted after it is killed, commands in parallel, their own
 * timeouts, output caps and clean-up, nothing left after release.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LocalSandboxProvider } from "../../../src/local/local-sandbox-provider.js";
import type { Mount } from "../../../src/mount.js";
import { BubblewrapRunner } from "../../../src/exec/bubblewrap-runner.js";
import type { CommandSpec, ResourceLimits } from "../../../src/exec/command-runner.js";
import { findExecutable } from "../../../src/exec/executables.js";
import {
  descendsFrom,
  isRunning,
  liveProcesses,
  makeThread,
  processesOfUid,
  testSpec,
  waitFor,
  type ThreadDirs,
} from "../../support/exec/processes.js";
import { executorProgram } from "../../../src/exec/executor/executor-program.js";

const available = await BubblewrapRunner.isAvailable();
const asRoot = process.geteuid?.() === 0;
const LIMITS: ResourceLimits = {
  cpuSeconds: 60,
  memoryBytes: 1 << 30,
  fileSizeBytes: 64 << 20,
  openFiles: 256,
  processes: 128,
  tmpBytes: 16 << 20,
};

/** The executor's own command line (the wrappers around it mention it too). */
const EXECUTOR_CMDLINE = (await executorProgram()).argv.slice(4).join(" ");

/** Host pids of this test process's executors (the Node process inside each sandbox). */
function executorPids(): number[] {
  return liveProcesses()
    .filter((p) => p.cmdline === EXECUTOR_CMDLINE && descendsFrom(p.pid, process.pid))
    .map((p) => p.pid);
}

const noneMatch = (marker: string) => () => !liveProcesses().some((p) => p.cmdline.includes(marker));
const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

describe.skipIf(!available)("sandbox executor", () => {
  // A uid of our own (RLIMIT_NPROC is per uid, and other suites run sandboxes at the same time).
  const uid = 2_000_500_000 + (process.pid % 1_000_000);
  let runner: BubblewrapRunner;
  let root: string;
  let dirs: ThreadDirs;
  let mounts: Mount[];

  beforeEach(async () => {
    runner = new BubblewrapRunner({ identity: { uid, gid: uid } });
    root = await mkdtemp(path.join(os.tmpdir(), "exec-executor-"));
    ({ dirs, mounts } = await makeThread(root));
  });
  afterEach(async () => {
    await runner.close();
    await rm(root, { recursive: true, force: true });
  });

  const run = (command: string, extra: Partial<CommandSpec> = {}) =>
    runner.run(testSpec(runner, { command, mounts, limits: LIMITS, sandboxId: "local:default:t1", ...extra }));

  it("runs every command of a sandbox on one executor, each in a session of its own", async () => {
    const first = await run("echo $PPID; ps -o pid=,sid=,comm= -p $$");
    const [executor] = executorPids();
    const second = await run("echo $PPID; tr '\\0' ' ' < /proc/1/cmdline");
    expect(first.stdout.split("\n")[0]).toBe("2");
    const [pid, sid] = (first.stdout.split("\n")[1] ?? "").trim().split(/\s+/);
    expect(sid).toBe(pid);
    expect(second.stdout).toContain("deerflow-executor");
    expect(executorPids()).toEqual([executor]);
  });

  it("gives commands no way to the executor's control channel", async () => {
    const r = await run(
      "ls /proc/self/fd; cat /proc/2/fd/0 2>&1; echo forged > /proc/2/fd/1; readlink /proc/1/fd/0 /proc/1/fd/1",
    );
    const lines = r.stdout.split("\n");
    // stdin, stdout, stderr and the listing's own directory: nothing inherited.
    expect(lines.slice(0, 4)).toEqual(["0", "1", "2", "3"]);
    // Refused twice over: the executor is not dumpable (see the next test), and its channel is a socket.
    expect(r.stdout).toMatch(/cat: \/proc\/2\/fd\/0: Permission denied/);
    expect(r.stderr).toMatch(/\/proc\/2\/fd\/1: Permission denied/);
    // PID 1 (the init) dropped its copies of the channel.
    expect(lines.slice(-3)).toEqual(["/dev/null", "/dev/null", ""]);
    expect((await run("echo still fine")).stdout).toBe("still fine\n");
  });

  it("keeps commands from inspecting or tracing the executor", async () => {
    const r = await run(
      `python3 -c "import ctypes; libc = ctypes.CDLL(None, use_errno=True); r = libc.ptrace(16, 2, 0, 0); print('attach', r, ctypes.get_errno())"; cat /proc/2/environ; ls /proc/2/fd`,
    );
    // EPERM: the executor runs from a binary the sandbox cannot read, so it is not dumpable.
    expect(r.stdout).toBe("attach -1 1\n");
    expect(r.stderr).toMatch(/\/proc\/2\/environ: Permission denied/);
    expect(r.stderr).toMatch(/\/proc\/2\/fd.*Permission denied/);
    expect((await run("echo unharmed")).stdout).toBe("unharmed\n");
  });

  it("starts a new executor after the old one was killed with SIGKILL", async () => {
    await run("true");
    const [old] = executorPids() as [number];
    process.kill(old, "SIGKILL");
    expect(await waitFor(() => !isRunning(old))).toBe(true);
    const r = await run("echo again");
    expect(r).toMatchObject({ stdout: "again\n", exitCode: 0 });
    const now = executorPids();
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(old);
  });

  it("fails a command running while its executor is killed, with a clear error", async () => {
    await run("true");
    const [executor] = executorPids() as [number];
    const pending = run("touch started; sleep 30");
    const failed = expect(pending).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining("stopped while the command was running"),
    });
    expect(await waitFor(() => existsSync(path.join(dirs.workspace, "started")))).toBe(true);
    process.kill(executor, "SIGKILL");
    await failed;
    expect((await run("echo next")).stdout).toBe("next\n");
  });

  it("runs a command whose executor died before starting it once, on a new executor", async () => {
    await run("true");
    const [executor] = executorPids() as [number];
    // Frozen, it cannot read the request; killed, it never started it.
    process.kill(executor, "SIGSTOP");
    const pending = run("echo ran >> ran.txt; echo done");
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(executor, "SIGKILL");
    expect((await pending).stdout).toBe("done\n");
    expect(await readFile(path.join(dirs.workspace, "ran.txt"), "utf8")).toBe("ran\n");
  });

  it("kills a timed-out command's whole tree but not the executor", async () => {
    await run("true");
    const executors = executorPids();
    const marker = `1000.${unique()}`;
    const r = await run(`sleep ${marker} & setsid sleep ${marker} & sleep ${marker}`, { timeoutMs: 500 });
    expect(r).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL" });
    expect(await waitFor(noneMatch(`sleep ${marker}`))).toBe(true);
    expect(executorPids()).toEqual(executors);
    expect((await run("echo alive")).stdout).toBe("alive\n");
  });

  it("runs several commands of one sandbox at the same time", async () => {
    // Each waits until all four have started: they can only finish if they run at once.
    const commands = [1, 2, 3, 4].map((i) =>
      run(
        `touch started-${i}; until [ "$(ls started-* | wc -l)" -ge 4 ]; do sleep 0.05; done; printf '${i}%.0s' $(seq 1 5000)`,
        { timeoutMs: 60_000 },
      ),
    );
    const results = await Promise.all(commands);
    results.forEach((r, i) => {
      expect(r).toMatchObject({ exitCode: 0, timedOut: false, stderr: "" });
      expect(r.stdout).toBe(String(i + 1).repeat(5000));
    });
    expect(executorPids()).toHaveLength(1);
  });

  it("caps each command's output on its own", async () => {
    const [big, small] = await Promise.all([
      run("head -c 3000000 /dev/zero | tr '\\0' 'a'; head -c 2000000 /dev/zero | tr '\\0' 'e' >&2"),
      run("echo small; echo also >&2"),
    ]);
    expect(big.truncated).toBe(true);
    expect(big.stdout).toBe(
      `${"a".repeat(1 << 20)}\n... [output truncated after 1048576 of 3000000 bytes; remaining output discarded] ...`,
    );
    expect(big.stderr).toBe(
      `${"e".repeat(1 << 20)}\n... [output truncated after 1048576 of 2000000 bytes; remaining output discarded] ...`,
    );
    expect(small).toMatchObject({ stdout: "small\n", stderr: "also\n", truncated: false });
  });

  it("reports a command killed by a signal as bubblewrap did (128 + signal)", async () => {
    expect((await run("kill -KILL $$")).exitCode).toBe(137);
    expect((await run("exit 3")).exitCode).toBe(3);
  });

  it("starts every command with an empty /tmp and /dev/shm", async () => {
    await run("echo x > /tmp/left; echo y > /dev/shm/left; mkdir -p /tmp/d/e");
    const r = await run("ls -A /tmp /dev/shm");
    expect(r.stdout).toBe("/dev/shm:\n\n/tmp:\n");
  });

  it("kills a process that left its session when its command ends, while another command's processes live on", async () => {
    const escaped = `1001.${unique()}`;
    const kept = `1002.${unique()}`;
    const long = run(`sleep ${kept} & touch long-started; until [ -e done ]; do sleep 0.05; done; echo long-done`, {
      timeoutMs: 60_000,
    });
    expect(await waitFor(() => existsSync(path.join(dirs.workspace, "long-started")))).toBe(true);
    const short = await run(`setsid sleep ${escaped} & echo short-done`);
    expect(short.stdout).toBe("short-done\n");
    expect(await waitFor(noneMatch(`sleep ${escaped}`))).toBe(true);
    expect(liveProcesses().some((p) => p.cmdline.includes(`sleep ${kept}`))).toBe(true);
    await writeFile(path.join(dirs.workspace, "done"), "");
    expect((await long).stdout).toBe("long-done\n");
    expect(await waitFor(noneMatch(`sleep ${kept}`))).toBe(true);
  });

  it("gives a command that needs more than the limits leave for Node a bubblewrap of its own", async () => {
    // As PID 1 of its own namespace, a one-bubblewrap command sees itself as pid 1.
    expect((await run("echo $$", { limits: { ...LIMITS, memoryBytes: 32 << 20 } })).stdout).toBe("1\n");
    expect((await run("echo $$")).stdout).not.toBe("1\n");
  });

  it("stops the executor when the provider releases the sandbox, and leaves nothing behind", async () => {
    const provider = new LocalSandboxProvider({ baseDir: root, runner, limits: LIMITS });
    const sandbox = await provider.acquire("t-release");
    expect((await sandbox.execute("sleep 300 & echo hi")).stdout).toBe("hi\n");
    expect(executorPids()).toHaveLength(1);
    await provider.release(sandbox.id);
    expect(await waitFor(() => executorPids().length === 0)).toBe(true);
    if (asRoot) expect(await waitFor(() => processesOfUid(uid).length === 0)).toBe(true);
    // The next command starts a new executor; shutdown stops it too.
    expect((await sandbox.execute("echo back")).stdout).toBe("back\n");
    expect(executorPids()).toHaveLength(1);
    await provider.shutdown();
    expect(await waitFor(() => executorPids().length === 0)).toBe(true);
    if (asRoot) expect(await waitFor(() => processesOfUid(uid).length === 0)).toBe(true);
  });
});

describe.skipIf(!available)("sandbox executor script", () => {
  const bwrap = findExecutable("bwrap") as string;
  const script = fileURLToPath(new URL("../../../src/exec/executor/sandbox-executor.cjs", import.meta.url));

  /** Runs `argv` in a throwaway bubblewrap (own PID namespace, own /tmp holding a canary). */
  const inThrowawaySandbox = (argv: string[]) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        bwrap,
        [
          "--ro-bind",
          "/",
          "/",
          "--tmpfs",
          "/tmp",
          "--ro-bind",
          script,
          "/tmp/executor.cjs",
          "--proc",
          "/proc",
          "--dev",
          "/dev",
          "--unshare-all",
          "--unshare-user",
          "--as-pid-1",
          "--die-with-parent",
          "--setenv",
          "DEERFLOW_SANDBOX_EXECUTOR",
          "1",
          "--",
          ...argv,
        ],
        { stdio: ["pipe", "pipe", "pipe"] },
      );
      let output = "";
      child.stdout.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr.on("data", (c: Buffer) => (output += c.toString()));
      child.once("close", (code) => resolve({ code, output }));
    });

  it.each([
    ["as PID 1", [process.execPath, "/tmp/executor.cjs"]],
    [
      "under an init that is not its own",
      ["/bin/sh", "-c", `touch /tmp/canary; ${process.execPath} /tmp/executor.cjs; echo "exit=$?"; ls /tmp`],
    ],
  ])("refuses to run %s: it would kill and delete what is not its own", async (_where, argv) => {
    const { code, output } = await inThrowawaySandbox(argv);
    expect(output).toContain("refusing to run outside its own sandbox");
    if (argv[0] === process.execPath) expect(code).toBe(78);
    else expect(output).toMatch(/exit=78\ncanary\n/);
  });
});
