import { statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runProcessTree } from "../../src/exec/process-tree.js";
import { isRunning, waitFor } from "../support/exec/processes.js";

const ENV = { PATH: "/usr/bin:/bin", LANG: "C" };
const sh = (script: string, extra: Partial<Parameters<typeof runProcessTree>[0]> = {}) =>
  runProcessTree({
    file: "/bin/sh",
    args: ["-c", script],
    env: ENV,
    timeoutMs: 20_000,
    maxOutputBytes: 1 << 20,
    ...extra,
  });

describe("runProcessTree", () => {
  let dir: string;
  const strays: number[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "exec-tree-"));
  });
  afterEach(async () => {
    for (const pid of strays.splice(0)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await rm(dir, { recursive: true, force: true });
  });

  const readPid = async (name: string): Promise<number> =>
    Number((await readFile(path.join(dir, name), "utf8")).trim());

  it("captures both streams and the exit code", async () => {
    const r = await sh("echo out; echo err >&2; exit 3");
    expect(r.stdout.text()).toBe("out\n");
    expect(r.stderr.text()).toBe("err\n");
    expect(r).toMatchObject({ exitCode: 3, signal: null, timedOut: false });
  });

  it("gives the command no stdin", async () => {
    const r = await sh("cat; echo done");
    expect(r.stdout.text()).toBe("done\n");
  });

  it("bounds memory on 100 MB of output and reports the exact notice", async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const r = await sh("yes | head -c 100000000", { maxOutputBytes: 1 << 20 }).finally(() => clearInterval(sampler));
    expect(r.stdout.totalBytes).toBe(100_000_000);
    expect(r.stdout.retainedBytes).toBe(1 << 20);
    expect(r.stdout.truncated).toBe(true);
    const text = r.stdout.text();
    expect(
      text.endsWith("y\n\n... [output truncated after 1048576 of 100000000 bytes; remaining output discarded] ..."),
    ).toBe(true);
    // Buffering the whole stream would need > 100 MB.
    expect(peak - before).toBeLessThan(90 * 1024 * 1024);
  });

  it("keeps non-UTF-8 and binary output as replacement-decoded text", async () => {
    const r = await sh("printf 'a\\377\\376b\\000c\\303'");
    expect(r.stdout.text()).toBe("a\uFFFD\uFFFDb\u0000c\uFFFD");
  });

  it("returns when the command exits although a background child holds the pipes", async () => {
    const r = await sh(`sleep 100 & echo $! > ${dir}/bg.pid; echo started`, { timeoutMs: 5_000 });
    strays.push(await readPid("bg.pid"));
    expect(r).toMatchObject({ exitCode: 0, timedOut: false });
    expect(r.stdout.text()).toBe("started\n");
    // the background process is not killed by a normal exit (DeerFlow: `server &` keeps running)
    expect(isRunning(await readPid("bg.pid"))).toBe(true);
  });

  it("kills the whole group at the timeout, children included", async () => {
    const r = await sh(`sleep 1000 & echo $! > ${dir}/child.pid; sleep 1000`, { timeoutMs: 300 });
    const child = await readPid("child.pid");
    strays.push(child);
    expect(r).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL" });
    expect(await waitFor(() => !isRunning(child))).toBe(true);
  });

  it("kills the whole group on abort and rejects with ABORTED", async () => {
    const controller = new AbortController();
    const pending = sh(`sleep 1000 & echo $! > ${dir}/child.pid; sleep 1000`, {
      signal: controller.signal,
      timeoutMs: 60_000,
    });
    expect(await waitFor(() => hasContent(path.join(dir, "child.pid")))).toBe(true);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
    const child = await readPid("child.pid");
    strays.push(child);
    expect(await waitFor(() => !isRunning(child))).toBe(true);
  });

  it("lets a terminate hook stop the tree on timeout", async () => {
    let asked: number | undefined;
    const r = await sh("sleep 1000", {
      timeoutMs: 200,
      terminate: (pid) => {
        asked = pid;
        process.kill(pid, "SIGKILL");
        return true;
      },
    });
    expect(asked).toBeGreaterThan(1);
    expect(r).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL" });
  });

  it("kills the group anyway when the terminate hook does not stop the leader", async () => {
    const r = await sh(`sleep 1000 & echo $! > ${dir}/child.pid; sleep 1000`, {
      timeoutMs: 200,
      terminate: () => true,
    });
    const child = await readPid("child.pid");
    strays.push(child);
    expect(r).toMatchObject({ timedOut: true, signal: "SIGKILL" });
    expect(await waitFor(() => !isRunning(child))).toBe(true);
  });

  it("hands fd 3 of the child over as a pipe", async () => {
    let info = "";
    const r = await sh("echo info >&3; echo out", {
      onInfoPipe: (stream) => stream.on("data", (c: Buffer) => (info += c.toString())),
    });
    expect(r.stdout.text()).toBe("out\n");
    expect(info).toBe("info\n");
  });

  it("rejects an already-aborted signal without spawning", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sh(`touch ${dir}/ran`, { signal: controller.signal })).rejects.toMatchObject({ code: "ABORTED" });
    expect(hasContent(path.join(dir, "ran"))).toBe(false);
  });

  it("rejects when the executable does not exist", async () => {
    await expect(
      runProcessTree({ file: "/nonexistent/bin/x", args: [], env: ENV, timeoutMs: 1000, maxOutputBytes: 10 }),
    ).rejects.toMatchObject({
      code: "ENOENT",
    });
  });
});

/** True once `file` exists and is not empty (a pid file was written). */
function hasContent(file: string): boolean {
  try {
    return statSync(file).size > 0;
  } catch {
    return false;
  }
}
