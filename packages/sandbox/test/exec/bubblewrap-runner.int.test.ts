import { randomUUID } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Mount } from "../../src/mount.js";
import { BubblewrapRunner } from "../../src/exec/bubblewrap-runner.js";
import type { CommandSpec, ResourceLimits } from "../../src/exec/command-runner.js";
import { commandEnvironment } from "../../src/exec/environment.js";
import {
  liveProcesses,
  makeThread,
  processesOfUid,
  testSpec,
  waitFor,
  type ThreadDirs,
} from "../support/exec/processes.js";

const available = await BubblewrapRunner.isAvailable();
const inCI = process.env["CI"] === "true";
if (!available && !inCI) {
  // Loud on purpose: a silent skip would hide that isolation is untested here.
  // oxlint-disable-next-line no-console -- see above
  console.warn(
    "\n\n!!! BubblewrapRunner integration tests SKIPPED: bubblewrap (bwrap >= 0.8 with user namespaces) is not usable on this host.\n" +
      "!!! Install it (apt-get install bubblewrap) to run them. Under CI=true this is a failure.\n\n",
  );
}

describe("BubblewrapRunner.isAvailable", () => {
  it.runIf(inCI)("reports bubblewrap as usable (required under CI=true)", () => {
    expect(available).toBe(true);
  });
});

const LIMITS: ResourceLimits = {
  cpuSeconds: 20,
  memoryBytes: 1 << 30,
  fileSizeBytes: 64 << 20,
  openFiles: 256,
  processes: 64,
  tmpBytes: 16 << 20,
};
const noneMatch = (marker: string) => () => !liveProcesses().some((p) => p.cmdline.includes(marker));
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

// Every test runs with the sandbox executor (the default) and with one bubblewrap per command.
describe.skipIf(!available).each([
  { mode: "with its executor", executor: true, uidOffset: 0 },
  { mode: "with one bubblewrap per command", executor: false, uidOffset: 500_000 },
])("BubblewrapRunner $mode", ({ executor, uidOffset }) => {
  // A uid of our own: RLIMIT_NPROC is per uid, and other suites may run
  // sandboxes as the default 65534 at the same time.
  const uid = 2_000_000_000 + uidOffset + (process.pid % 500_000);
  const runner = new BubblewrapRunner({ identity: { uid, gid: uid }, ...(executor ? {} : { executor: false }) });
  let root: string;
  let dirs: ThreadDirs;
  let mounts: Mount[];

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "exec-bwrap-"));
    ({ dirs, mounts } = await makeThread(root));
  });
  afterEach(async () => {
    delete process.env["MY_API_KEY"];
    // Each test has folders of its own, hence a sandbox (and an executor) of its own.
    await runner.close();
    await rm(root, { recursive: true, force: true });
  });

  const run = (command: string, extra: Partial<CommandSpec> = {}) =>
    runner.run(testSpec(runner, { command, mounts, limits: LIMITS, ...extra }));

  it("has kind bubblewrap and is isolated", () => {
    expect(runner).toMatchObject({ kind: "bubblewrap", isolated: true });
  });

  it("starts in the virtual working directory with the sandbox's own hostname", async () => {
    const r = await run("pwd; echo $HOME; hostname");
    expect(r.stdout).toBe("/mnt/user-data/workspace\n/mnt/user-data/workspace\nsandbox\n");
  });

  it("binds mounts whose host parents are private (0700)", async () => {
    expect((await stat(root)).mode & 0o777).toBe(0o700);
    await writeFile(path.join(dirs.workspace, "a.txt"), "alpha\n");
    const r = await run("cat a.txt /mnt/skills/public/demo/SKILL.md");
    expect(r.stdout).toBe("alpha\n# demo\n");
  });

  it("sees only its mounts and the system directories", async () => {
    const r = await run("ls /; echo ---; ls /mnt; echo ---; ls /mnt/user-data");
    const [top, mnt, userData] = r.stdout.split("---\n").map((s) => s.trim().split("\n"));
    expect(top).toEqual(expect.arrayContaining(["bin", "dev", "etc", "mnt", "proc", "tmp", "usr"]));
    for (const hidden of ["root", "home", "var", "sys", "boot", "opt", "srv", "work"])
      expect(top).not.toContain(hidden);
    expect(mnt).toEqual(["skills", "user-data"]);
    expect(userData).toEqual(["outputs", "uploads", "workspace"]);
  });

  it.each(["ls /root", "ls /home", "ls /var", "cat /etc/shadow", "ls /etc/ssh"])("cannot reach %s", async (command) => {
    const r = await run(command);
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).toBe("");
  });

  it("cannot write outside /tmp and its writable mounts", async () => {
    const r = await run(
      "touch /filler 2>&1; mkdir /mnt/new 2>&1; touch /tmp/ok && echo tmp-ok; touch ok && echo ws-ok",
    );
    expect(r.stdout).toMatch(/touch: cannot touch '\/filler': Read-only file system/);
    expect(r.stdout).toMatch(/mkdir: cannot create directory .\/mnt\/new.: Read-only file system/);
    expect(r.stdout).toContain("tmp-ok\nws-ok\n");
  });

  it("cannot see another thread's directory", async () => {
    const r = await run(`cat ${path.join(dirs.otherWorkspace, "secret.txt")}; ls ${root}`);
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain("other thread");
  });

  it("keeps host paths out of /proc/self/mountinfo", async () => {
    const r = await run("cat /proc/self/mountinfo; readlink /proc/self/cwd");
    expect(r.stdout).toContain(" /mnt/user-data/workspace ");
    expect(r.stdout).not.toContain(root);
  });

  it("exposes only allowlisted /etc files", async () => {
    const r = await run("ls /etc; head -1 /etc/passwd");
    expect(r.stdout).toContain("passwd");
    expect(r.stdout).not.toMatch(/^(shadow|gshadow|sudoers|npmrc|pip\.conf|environment)$/m);
  });

  it("mounts /mnt/skills read-only", async () => {
    const r = await run("touch /mnt/skills/x; echo more >> /mnt/skills/public/demo/SKILL.md");
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain("Read-only file system");
    expect(await readFile(path.join(dirs.skills, "public", "demo", "SKILL.md"), "utf8")).toBe("# demo\n");
    expect(existsSync(path.join(dirs.skills, "x"))).toBe(false);
  });

  it("writes files the host can read and write", async () => {
    const r = await run("echo from-sandbox > out.txt && mkdir -p d && echo x > d/y && chmod 000 d/y");
    expect(r.exitCode).toBe(0);
    expect(await readFile(path.join(dirs.workspace, "out.txt"), "utf8")).toBe("from-sandbox\n");
    await appendFile(path.join(dirs.workspace, "out.txt"), "from-host\n");
    if (process.geteuid?.() === 0) expect(await readFile(path.join(dirs.workspace, "d", "y"), "utf8")).toBe("x\n");
  });

  it("can modify files and directories the host created", async () => {
    await writeFile(path.join(dirs.workspace, "host.txt"), "host\n");
    await writeFile(path.join(dirs.uploads, "up.csv"), "a,b\n");
    const r = await run(
      "echo sandbox >> host.txt && mkdir -p /mnt/user-data/outputs/r && echo 1 > /mnt/user-data/outputs/r/x && mv /mnt/user-data/uploads/up.csv /mnt/user-data/uploads/moved.csv",
    );
    expect(r).toMatchObject({ exitCode: 0, stderr: "" });
    expect(await readFile(path.join(dirs.workspace, "host.txt"), "utf8")).toBe("host\nsandbox\n");
    expect(existsSync(path.join(dirs.uploads, "moved.csv"))).toBe(true);
  });

  describe("network", () => {
    let server: net.Server;
    let port: number;
    beforeEach(async () => {
      server = net.createServer((socket) => socket.end("hello\n"));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as net.AddressInfo).port;
    });
    afterEach(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    const probe = () => `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected && cat <&3'`;

    it("has no network by default: a host loopback listener is unreachable", async () => {
      const r = await run(probe());
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout).not.toContain("connected");
    });

    it("reaches the host network when network is true", async () => {
      const r = await run(probe(), { network: true });
      expect(r.stdout).toBe("connected\nhello\n");
    });
  });

  it("has a private, size-capped /tmp", async () => {
    const marker = `deerflow-host-marker-${randomUUID()}`;
    await writeFile(path.join(os.tmpdir(), marker), "x");
    try {
      const r = await run(`ls -A /tmp; echo inside > /tmp/${marker}-in; head -c 4000000 /dev/zero > /tmp/big`, {
        limits: { ...LIMITS, tmpBytes: 1 << 20 },
      });
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("No space left on device");
      expect(existsSync(path.join(os.tmpdir(), `${marker}-in`))).toBe(false);
    } finally {
      await rm(path.join(os.tmpdir(), marker), { force: true });
    }
  });

  it("hides the host environment, secrets included", async () => {
    process.env["MY_API_KEY"] = "host-secret-value";
    const r = await run("env");
    expect(r.stdout).not.toContain("MY_API_KEY");
    expect(r.stdout).not.toContain("host-secret-value");
    expect(r.stdout).toContain("PATH=/usr/local/bin:/usr/bin:/bin\n");
    const bare = await run("echo ${MY_API_KEY-unset} $PATH", { env: {} });
    expect(bare.stdout).toBe("unset /usr/local/bin:/usr/bin:/bin\n");
  });

  it("passes per-call variables", async () => {
    const r = await run('echo "$INJECTED_TOKEN"', { env: commandEnvironment(runner, { INJECTED_TOKEN: "t0k" }) });
    expect(r.stdout).toBe("t0k\n");
  });

  it("kills a busy loop at the CPU limit", async () => {
    const r = await run("while :; do :; done", { limits: { ...LIMITS, cpuSeconds: 1 } });
    expect(r.timedOut).toBe(false);
    expect([128 + 9, 128 + 24]).toContain(r.exitCode); // SIGKILL or SIGXCPU
  });

  it("stops a disk filler at the file-size limit (SIGXFSZ)", async () => {
    const r = await run("head -c 4000000 /dev/zero > big.bin", { limits: { ...LIMITS, fileSizeBytes: 1 << 20 } });
    expect(r.exitCode).toBe(128 + 25);
    expect((await stat(path.join(dirs.workspace, "big.bin"))).size).toBe(1 << 20);
  });

  it("caps the number of processes", async () => {
    const marker = `31.${Date.now()}`;
    const r = await run(`sh -c 'i=0; while [ $i -lt 100 ]; do sleep ${marker} & i=$((i+1)); echo $i; done'`, {
      limits: { ...LIMITS, processes: 16 },
    });
    const started = r.stdout.trim().split("\n").length;
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(16);
    expect(r.stderr).toContain("Cannot fork");
    expect(await waitFor(noneMatch(`sleep ${marker}`))).toBe(true);
  });

  it("contains a fork bomb and cleans it up", async () => {
    const marker = `bomb-${randomUUID()}`;
    const r = await run(`: ${marker}; f(){ f|f & }; f; sleep 1; echo survived`, {
      limits: { ...LIMITS, processes: 32 },
      timeoutMs: 20_000,
    });
    expect(r.stderr).toMatch(/fork|Resource temporarily unavailable/);
    expect(await waitFor(noneMatch(marker))).toBe(true);
    // the host is unaffected
    expect((await run("echo ok")).stdout).toBe("ok\n");
  });

  it("kills everything at the timeout", async () => {
    const marker = `1000.${Date.now()}`;
    const r = await run(`sleep ${marker} & setsid sleep ${marker} & sleep ${marker}`, { timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(r.signal).toBe("SIGKILL");
    expect(await waitFor(noneMatch(`sleep ${marker}`))).toBe(true);
  });

  it("kills everything on abort", async () => {
    const marker = `1001.${Date.now()}`;
    const controller = new AbortController();
    const pending = run(`sleep ${marker} & echo started > started.txt; sleep ${marker}`, { signal: controller.signal });
    const flag = path.join(dirs.workspace, "started.txt");
    expect(await waitFor(() => existsSync(flag) && statSync(flag).size > 0)).toBe(true);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
    expect(await waitFor(noneMatch(`sleep ${marker}`))).toBe(true);
  });

  it("returns at once when the command leaves a background process, which ends with the sandbox", async () => {
    const marker = `100.${Date.now()}`;
    const r = await run(`sleep ${marker} & echo started`, { timeoutMs: 5_000 });
    expect(r).toMatchObject({ stdout: "started\n", exitCode: 0, timedOut: false });
    expect(await waitFor(noneMatch(`sleep ${marker}`))).toBe(true);
  });

  it("bounds 100 MB of output and appends the exact notice", async () => {
    const r = await run("yes | head -c 100000000");
    expect(r.truncated).toBe(true);
    expect(
      r.stdout.endsWith("y\n\n... [output truncated after 1048576 of 100000000 bytes; remaining output discarded] ..."),
    ).toBe(true);
  });

  it("decodes non-UTF-8 and binary output with replacement characters", async () => {
    const r = await run("printf 'a\\377b\\000c'");
    expect(r.stdout).toBe("a\uFFFDb\u0000c");
  });

  it("rejects a missing working directory with its virtual path", async () => {
    await expect(run("pwd", { cwd: "/mnt/user-data/workspace/nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses to run as root or as an id bubblewrap cannot map", async () => {
    for (const uid of [0, 2 ** 31]) {
      const bad = new BubblewrapRunner({ identity: { uid, gid: uid } });
      await expect(
        bad.run({
          command: "id",
          mounts,
          cwd: "/mnt/user-data/workspace",
          env: {},
          timeoutMs: 5_000,
          maxOutputBytes: 100,
          limits: {},
          network: false,
        }),
      ).rejects.toMatchObject({
        code: "CONFIG_INVALID",
      });
    }
  });

  it("leaves no process of its uid behind, zombies included, but its executor", async () => {
    // Every wrapper must be reaped by its own parent: an orphan would stay a
    // zombie of the sandbox uid (counting against its process limit) wherever
    // PID 1 does not reap, e.g. a Node server as PID 1 in a container. With
    // an executor, its own processes (bubblewrap, the init, node) stay until
    // it is released; without, nothing stays.
    const pidsOfUid = () => processesOfUid(uid).map((p) => p.split(" ")[0] as string);
    await run("true");
    const executorPids = pidsOfUid();
    const names = processesOfUid(uid).map((p) => p.split(" ")[2]);
    expect(names.sort()).toEqual(executor && process.geteuid?.() === 0 ? ["bwrap", "node", "sh"] : []);
    const normal = await run("sleep 30 & echo done");
    expect(normal.stdout).toBe("done\n");
    expect(await waitFor(() => sameList(pidsOfUid(), executorPids))).toBe(true);
    const killed = await run("sleep 30 & sleep 30", { timeoutMs: 300 });
    expect(killed.timedOut).toBe(true);
    expect(await waitFor(() => sameList(pidsOfUid(), executorPids))).toBe(true);
    await runner.close();
    expect(processesOfUid(uid)).toEqual([]);
  });

  it("rejects a mount on a system directory", async () => {
    await expect(
      run("true", { mounts: [...mounts, { virtualPath: "/usr/local/x", hostPath: dirs.workspace, readOnly: true }] }),
    ).rejects.toMatchObject({
      code: "CONFIG_INVALID",
    });
  });
});
