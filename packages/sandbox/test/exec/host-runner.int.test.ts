import { existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Mount } from "../../src/mount.js";
import type { CommandSpec } from "../../src/exec/command-runner.js";
import { commandEnvironment } from "../../src/exec/environment.js";
import { HostRunner } from "../../src/exec/host-runner.js";
import { HIDDEN_HOST_PATH } from "../../src/exec/path-rewrite.js";
import { isRunning, makeThread, waitFor, type ThreadDirs } from "../support/exec/processes.js";

describe("HostRunner", () => {
  const runner = new HostRunner();
  let root: string;
  let dirs: ThreadDirs;
  let mounts: Mount[];
  const strays: number[] = [];

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "exec-host-"));
    ({ dirs, mounts } = await makeThread(root));
  });
  afterEach(async () => {
    for (const pid of strays.splice(0)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    delete process.env["MY_API_KEY"];
    await rm(root, { recursive: true, force: true });
  });

  const run = (command: string, extra: Partial<CommandSpec> = {}) =>
    runner.run({
      command,
      mounts,
      cwd: "/mnt/user-data/workspace",
      env: commandEnvironment(runner),
      timeoutMs: 20_000,
      maxOutputBytes: 1 << 20,
      limits: {},
      network: false,
      ...extra,
    });

  it("has kind host and is not isolated", () => {
    expect(runner).toMatchObject({ kind: "host", isolated: false });
  });

  it("maps virtual paths in the command and host paths in the output", async () => {
    await writeFile(path.join(dirs.workspace, "a.txt"), "alpha\n");
    const r = await run(
      "cat /mnt/user-data/workspace/a.txt; pwd; ls -d /mnt/user-data/workspace/a.txt; ls -d /mnt/skills/public; realpath /mnt/user-data/uploads",
    );
    expect(r.stdout).toBe(
      "alpha\n/mnt/user-data/workspace\n/mnt/user-data/workspace/a.txt\n/mnt/skills/public\n/mnt/user-data/uploads\n",
    );
    expect(r.stdout + r.stderr).not.toContain(root);
  });

  it("maps host paths in error messages on stderr", async () => {
    const r = await run("ls /mnt/user-data/workspace/missing");
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain("/mnt/user-data/workspace/missing");
    expect(r.stderr).not.toContain(root);
  });

  it("runs in the mapped working directory", async () => {
    await mkdir(path.join(dirs.workspace, "sub"));
    const r = await run("pwd; echo x > here.txt", { cwd: "/mnt/user-data/workspace/sub" });
    expect(r.stdout).toBe("/mnt/user-data/workspace/sub\n");
    expect(await readFile(path.join(dirs.workspace, "sub", "here.txt"), "utf8")).toBe("x\n");
  });

  it("does not leak the host path of an unmounted sibling directory", async () => {
    const onlyWorkspace = mounts.filter((m) => m.virtualPath === "/mnt/user-data/workspace");
    await mkdir(`${dirs.workspace}-old`);
    const r = await run("realpath /mnt/user-data/workspace/../workspace-old; realpath /mnt/user-data/workspace", {
      mounts: onlyWorkspace,
    });
    expect(r.stdout).toBe(`${HIDDEN_HOST_PATH}\n/mnt/user-data/workspace\n`);
    expect(r.stdout).not.toContain(dirs.workspace);
  });

  it("does not take a sibling virtual path for a mount", async () => {
    const r = await run("echo /mnt/skills-extra/x /mnt/user-data/workspace-extra");
    expect(r.stdout).toBe("/mnt/skills-extra/x /mnt/user-data/workspace-extra\n");
  });

  it("hides host secrets but passes per-call variables", async () => {
    process.env["MY_API_KEY"] = "host-secret-value";
    const r = await run('echo "key=${MY_API_KEY-unset} injected=$INJECTED_TOKEN"', {
      env: commandEnvironment(runner, { INJECTED_TOKEN: "t0k" }),
    });
    expect(r.stdout).toBe("key=unset injected=t0k\n");
  });

  it("truncates output at the cap with DeerFlow's notice", async () => {
    const r = await run("head -c 3000 /dev/zero | tr '\\0' a", { maxOutputBytes: 1000 });
    expect(r.truncated).toBe(true);
    expect(r.stdout).toBe(
      `${"a".repeat(1000)}\n... [output truncated after 1000 of 3000 bytes; remaining output discarded] ...`,
    );
  });

  it("returns at once when the command leaves a background process", async () => {
    const r = await run("sleep 100 & echo $! > bg.pid; echo started", { timeoutMs: 5_000 });
    strays.push(Number(await readFile(path.join(dirs.workspace, "bg.pid"), "utf8")));
    expect(r).toMatchObject({ stdout: "started\n", exitCode: 0, timedOut: false });
  });

  it("kills the command and its children at the timeout", async () => {
    const r = await run("sleep 1000 & echo $! > child.pid; sleep 1000", { timeoutMs: 300 });
    const child = Number(await readFile(path.join(dirs.workspace, "child.pid"), "utf8"));
    strays.push(child);
    expect(r).toMatchObject({ timedOut: true, signal: "SIGKILL", exitCode: null });
    expect(await waitFor(() => !isRunning(child))).toBe(true);
  });

  it("kills the tree on abort", async () => {
    const controller = new AbortController();
    const pending = run("sleep 1000 & echo $! > child.pid; sleep 1000", { signal: controller.signal });
    const pidFile = path.join(dirs.workspace, "child.pid");
    expect(await waitFor(() => existsSync(pidFile) && statSync(pidFile).size > 0)).toBe(true);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
    const child = Number(await readFile(pidFile, "utf8"));
    strays.push(child);
    expect(await waitFor(() => !isRunning(child))).toBe(true);
  });

  it("applies the file-size limit through prlimit", async () => {
    const r = await run("head -c 2000000 /dev/zero > big.bin", { limits: { fileSizeBytes: 1 << 20 } });
    expect(r.exitCode).toBe(128 + 25); // SIGXFSZ
    expect((await stat(path.join(dirs.workspace, "big.bin"))).size).toBe(1 << 20);
  });

  it("rejects a working directory outside the mounts", async () => {
    await expect(run("pwd", { cwd: "/etc" })).rejects.toMatchObject({ code: "PATH_NOT_ALLOWED" });
  });

  it("rejects a missing working directory with its virtual path", async () => {
    await expect(run("pwd", { cwd: "/mnt/user-data/workspace/nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Working directory not found: /mnt/user-data/workspace/nope",
    });
  });
});
