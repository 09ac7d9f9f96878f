import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Clock } from "../../src/remote/client/clock.js";
import { HttpProvisionerBackend } from "../../src/remote/client/http-provisioner-backend.js";
import type { RemoteSandbox } from "../../src/remote/client/remote-sandbox.js";
import { RemoteSandboxProvider } from "../../src/remote/client/remote-sandbox-provider.js";
import type { SandboxBackend } from "../../src/remote/client/sandbox-backend.js";
import { sandboxIdFor } from "../../src/remote/client/sandbox-id.js";
import { startServerProcess, type ServerProcess } from "../support/remote/server-process.js";
import { codeOf } from "../support/remote/error-code.js";

const API_KEY = "int-test-key-0123456789";
const IDLE_MS = 60_000;

/** Real sleeps (readiness polling), a clock the test can move forward (idle reaping), no timers. */
class SkewClock implements Clock {
  skew = 0;
  now(): number {
    return Date.now() + this.skew;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
  every(): () => void {
    return () => undefined;
  }
}

/** Counts the calls the provider makes. */
class CountingBackend implements SandboxBackend {
  readonly creates: string[] = [];
  readonly destroys: string[] = [];
  constructor(private readonly inner: SandboxBackend) {}
  create(id: string, threadId: string, userId: string) {
    this.creates.push(id);
    return this.inner.create(id, threadId, userId);
  }
  discover(id: string) {
    return this.inner.discover(id);
  }
  destroy(id: string) {
    this.destroys.push(id);
    return this.inner.destroy(id);
  }
  list() {
    return this.inner.list();
  }
  isAlive(id: string) {
    return this.inner.isAlive(id);
  }
}

describe("RemoteSandboxProvider against deerflow-sandbox-server (separate process)", () => {
  let tmp: string;
  let server: ServerProcess;
  let service: HttpProvisionerBackend;
  let backend: CountingBackend;
  let clock: SkewClock;
  let provider: RemoteSandboxProvider;
  let sandbox: RemoteSandbox;

  const liveIds = async (): Promise<string[]> => (await service.list()).map((s) => s.id).sort();

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "remote-int-"));
    await mkdir(path.join(tmp, "skills/public/demo"), { recursive: true });
    await writeFile(path.join(tmp, "skills/public/demo/SKILL.md"), "---\nname: demo\n---\nDemo skill\n");
    server = await startServerProcess(
      ["--port", "0", "--base-dir", path.join(tmp, "base"), "--skills-dir", path.join(tmp, "skills")],
      {
        SANDBOX_API_KEY: API_KEY,
      },
    );
    service = new HttpProvisionerBackend({ url: server.url, apiKey: API_KEY });
    backend = new CountingBackend(service);
    clock = new SkewClock();
    provider = new RemoteSandboxProvider({
      backend,
      apiKey: API_KEY,
      clock,
      readyIntervalMs: 50,
      maxSandboxes: 2,
      idleTimeoutMs: IDLE_MS,
    });
  });

  afterAll(async () => {
    await provider?.shutdown().catch(() => undefined);
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  });

  it("acquires a sandbox the service then hosts, under the deterministic id", async () => {
    sandbox = await provider.acquire("thread-1", "alice");
    expect(sandbox.id).toBe(sandboxIdFor("thread-1", "alice"));
    expect(sandbox.url).toBe(`${server.url}/sandboxes/${sandbox.id}`);
    expect(await liveIds()).toEqual([sandbox.id]);
  });

  it("writes, reads, lists, globs and greps through the service", async () => {
    await sandbox.writeFile("/mnt/user-data/workspace/notes/a.md", "# Title\nalpha line\n");
    await sandbox.writeFile("/mnt/user-data/workspace/notes/a.md", "beta line\n", { append: true });
    await sandbox.writeBytes("/mnt/user-data/outputs/b.bin", new Uint8Array([0, 1, 254, 255]));
    expect(await sandbox.readFile("/mnt/user-data/workspace/notes/a.md", { startLine: 2, endLine: 3 })).toBe(
      "alpha line\nbeta line",
    );
    expect(Array.from(await sandbox.readBytes("/mnt/user-data/outputs/b.bin"))).toEqual([0, 1, 254, 255]);
    expect(await sandbox.listDir("/mnt/user-data/workspace")).toEqual([
      "/mnt/user-data/workspace/notes/",
      "/mnt/user-data/workspace/notes/a.md",
    ]);
    expect(await sandbox.glob("/mnt/user-data/workspace", "**/*.md")).toEqual({
      matches: ["/mnt/user-data/workspace/notes/a.md"],
      truncated: false,
    });
    const grep = await sandbox.grep("/mnt/user-data/workspace", "ALPHA");
    expect(grep.matches).toEqual([{ path: "/mnt/user-data/workspace/notes/a.md", line: 2, text: "alpha line" }]);
  });

  it("executes commands in the sandbox with its mounts", async () => {
    const result = await sandbox.execute(
      "cd /mnt/user-data/workspace && cat notes/a.md | wc -l && echo oops >&2 && exit 3",
      { timeoutMs: 20_000 },
    );
    expect(result).toMatchObject({ stdout: "3\n", stderr: "oops\n", exitCode: 3, timedOut: false, truncated: false });
    const skill = await sandbox.execute("cat /mnt/skills/public/demo/SKILL.md", { env: { GREETING: "hi" } });
    expect(skill.stdout).toContain("Demo skill");
    const env = await sandbox.execute('printf %s "$GREETING"', { env: { GREETING: "hi" } });
    expect(env.stdout).toBe("hi");
  });

  it("kills a command at its timeout", async () => {
    const result = await sandbox.execute("sleep 30", { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
  });

  it("rebuilds the sandbox's error codes", async () => {
    expect(await codeOf(sandbox.readFile("/mnt/user-data/workspace/missing.txt"))).toBe("NOT_FOUND");
    expect(await codeOf(sandbox.writeFile("/mnt/skills/public/demo/x.txt", "x"))).toBe("READ_ONLY");
    expect(await codeOf(sandbox.readFile("/etc/passwd"))).toBe("PATH_NOT_ALLOWED");
    expect(await codeOf(sandbox.readFile("/mnt/user-data/workspace/../../../etc/passwd"))).toBe("PATH_ESCAPE");
    expect(await codeOf(sandbox.execute("true", { env: { "BAD-NAME": "x" } }))).toBe("INVALID_ARGUMENT");
  });

  it("reuses a released sandbox from the warm pool without creating another", async () => {
    await provider.release(sandbox.id);
    expect(provider.snapshot()).toEqual({ active: [], warm: [sandbox.id] });
    const again = await provider.acquire("thread-1", "alice");
    expect(again).toBe(sandbox);
    expect(backend.creates).toEqual([sandbox.id]);
    expect(await again.readFile("/mnt/user-data/workspace/notes/a.md", { endLine: 1 })).toBe("# Title");
  });

  it("reaps an idle sandbox", async () => {
    await provider.release(sandbox.id);
    clock.skew += IDLE_MS;
    expect(await provider.reapIdle()).toEqual([sandbox.id]);
    expect(await liveIds()).toEqual([]);
    expect(await codeOf(sandbox.readFile("/mnt/user-data/workspace/notes/a.md"))).toBe("UNAVAILABLE");
  });

  it("re-creates a reaped thread's sandbox with its files intact", async () => {
    const back = await provider.acquire("thread-1", "alice");
    expect(back.id).toBe(sandbox.id);
    expect(backend.creates).toEqual([sandbox.id, sandbox.id]);
    expect(await back.readFile("/mnt/user-data/workspace/notes/a.md", { endLine: 1 })).toBe("# Title");
    await provider.release(back.id);
  });

  it("evicts the least recently released warm sandbox at the cap", async () => {
    const b = await provider.acquire("thread-2", "alice");
    await provider.release(b.id);
    expect(provider.snapshot().warm).toEqual([sandbox.id, b.id]);
    const c = await provider.acquire("thread-3", "alice");
    expect(backend.destroys.at(-1)).toBe(sandbox.id);
    expect(await liveIds()).toEqual([b.id, c.id].sort());
    expect(provider.snapshot()).toEqual({ active: [c.id], warm: [b.id] });
  });

  it("destroys every sandbox it tracks on shutdown", async () => {
    await provider.shutdown();
    expect(await liveIds()).toEqual([]);
    expect(await codeOf(provider.acquire("thread-4"))).toBe("UNAVAILABLE");
  });

  it("answers UNAVAILABLE once the server is gone", async () => {
    const second = new RemoteSandboxProvider({
      url: server.url,
      apiKey: API_KEY,
      readyIntervalMs: 50,
      idleTimeoutMs: 0,
    });
    const doomed = await second.acquire("thread-5");
    expect(await doomed.execute("echo up")).toMatchObject({ stdout: "up\n" });
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    expect(await codeOf(doomed.readFile("/mnt/user-data/workspace/x"))).toBe("UNAVAILABLE");
    expect(await codeOf(doomed.execute("true"))).toBe("UNAVAILABLE");
    expect(await codeOf(second.acquire("thread-6"))).toBe("UNAVAILABLE");
    await second.shutdown();
  });
});

describe("deerflow-sandbox-server process", () => {
  let tmp: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "remote-proc-"));
  });

  afterAll(async () => {
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  });

  it("rejects requests without the API key", async () => {
    server = await startServerProcess(["--port", "0", "--base-dir", tmp], { SANDBOX_API_KEY: API_KEY });
    const res = await fetch(`${server.url}/api/sandboxes`);
    expect(res.status).toBe(401);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("stops gracefully on SIGTERM", async () => {
    const running =
      server ?? (await startServerProcess(["--port", "0", "--base-dir", tmp], { SANDBOX_API_KEY: API_KEY }));
    expect(await running.stop("SIGTERM")).toBe(0);
    expect(running.stderr()).toContain('"msg":"stopped"');
  });

  it("refuses to serve a public address without an API key", async () => {
    const failed = await startServerProcess(["--host", "0.0.0.0", "--port", "0", "--base-dir", tmp]).catch(
      (err: unknown) => err,
    );
    expect(String(failed)).toMatch(/exited \(2\)[\s\S]*refusing to serve 0\.0\.0\.0 without SANDBOX_API_KEY/);
  });
});
