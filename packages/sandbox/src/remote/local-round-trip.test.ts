import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import type { CommandRunner, CommandSpec } from "../exec/command-runner.js";
import { LocalSandboxProvider } from "../local/local-sandbox-provider.js";
import type { ExecuteResult, Sandbox } from "../sandbox.js";
import { HttpProvisionerBackend } from "./client/http-provisioner-backend.js";
import { RemoteSandbox } from "./client/remote-sandbox.js";
import { createSandboxServer } from "./server/create-sandbox-server.js";
import { injectFetch } from "../../test/support/remote/inject-fetch.js";

/** Runs nothing: echoes the command's environment variable X and records the spec. */
class EchoRunner implements CommandRunner {
  readonly kind = "echo";
  readonly isolated = false;
  readonly specs: CommandSpec[] = [];
  async run(spec: CommandSpec): Promise<ExecuteResult> {
    this.specs.push(spec);
    return { stdout: `${spec.command}\n`, stderr: "", exitCode: 0, signal: null, timedOut: false, truncated: false };
  }
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; path: string | undefined }> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!SandboxError.isInstance(err)) throw new Error(`expected a SandboxError, got ${String(err)}`);
  return { code: err.code, message: err.message, path: err.path };
}

describe("RemoteSandbox over createSandboxServer with a LocalSandboxProvider", () => {
  let tmp: string;
  let app: FastifyInstance;
  let local: Sandbox;
  let remote: RemoteSandbox;
  let runner: EchoRunner;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "remote-local-"));
    await mkdir(path.join(tmp, "skills/public/demo"), { recursive: true });
    await writeFile(path.join(tmp, "skills/public/demo/SKILL.md"), "skill");
    await mkdir(path.join(tmp, "outside"));
    await writeFile(path.join(tmp, "outside/secret.txt"), "secret");
    runner = new EchoRunner();
    const provider = new LocalSandboxProvider({
      baseDir: path.join(tmp, "base"),
      skillsDir: path.join(tmp, "skills"),
      runner,
    });
    app = createSandboxServer({ provider, token: "k" });
    const fetchImpl = injectFetch(app);
    const { url } = await new HttpProvisionerBackend({ url: "http://svc.test", apiKey: "k", fetch: fetchImpl }).create(
      "sb",
      "t1",
      "u1",
    );
    remote = new RemoteSandbox({ id: "sb", url, apiKey: "k", fetch: fetchImpl });
    // The service hosts client "default"'s user u1 as the provider's user "default.u1".
    local = await provider.acquire("t1", "default.u1");
    await local.writeFile("/mnt/user-data/workspace/dir/a.txt", "one\ntwo\nthree\n");
    await symlink(
      path.join(tmp, "outside/secret.txt"),
      path.join(tmp, "base/users/default.u1/threads/t1/user-data/workspace/escape.txt"),
    );
  });

  afterEach(async () => {
    await app.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it("returns what the local sandbox returns", async () => {
    const ops: ((s: Sandbox) => Promise<unknown>)[] = [
      (s) => s.readFile("/mnt/user-data/workspace/dir/a.txt"),
      (s) => s.readFile("/mnt/user-data/workspace/dir/a.txt", { startLine: 2, endLine: 3 }),
      (s) => s.readFile("/mnt/user-data/workspace/dir/a.txt", { startLine: 3 }),
      (s) => s.readFile("/mnt/skills/public/demo/SKILL.md"),
      (s) => s.readBytes("/mnt/user-data/workspace/dir/a.txt"),
      (s) => s.listDir("/mnt/user-data"),
      (s) => s.listDir("/mnt/user-data/workspace", { maxDepth: 1 }),
      (s) => s.glob("/mnt/user-data/workspace", "**/*.txt"),
      (s) => s.glob("/mnt/user-data/workspace", "*", { includeDirs: true, maxResults: 1 }),
      (s) => s.grep("/mnt/user-data/workspace", "T[wh]", { caseSensitive: false }),
      (s) => s.grep("/mnt/user-data/workspace", "T[wh]", { caseSensitive: true }),
      (s) => s.grep("/mnt/user-data/workspace", "o", { glob: "**/*.txt", maxResults: 1, literal: true }),
    ];
    for (const op of ops) expect(await op(remote)).toEqual(await op(local));
  });

  it.each<[string, (s: Sandbox) => Promise<unknown>]>([
    ["a missing file", (s) => s.readFile("/mnt/user-data/workspace/nope.txt")],
    ["a directory read as a file", (s) => s.readFile("/mnt/user-data/workspace/dir")],
    ["a file listed as a directory", (s) => s.listDir("/mnt/user-data/workspace/dir/a.txt")],
    ["a write to the skills mount", (s) => s.writeFile("/mnt/skills/public/demo/SKILL.md", "x")],
    ["a path outside the mounts", (s) => s.readFile("/etc/passwd")],
    ["a .. traversal", (s) => s.readFile("/mnt/user-data/workspace/../../../etc/passwd")],
    ["a symlink escaping the mount", (s) => s.readFile("/mnt/user-data/workspace/escape.txt")],
    ["an invalid regex", (s) => s.grep("/mnt/user-data/workspace", "(")],
    ["a line range starting at 0", (s) => s.readFile("/mnt/user-data/workspace/dir/a.txt", { startLine: 0 })],
    ["an inverted line range", (s) => s.readFile("/mnt/user-data/workspace/dir/a.txt", { startLine: 3, endLine: 2 })],
    ["a bad environment variable name", (s) => s.execute("true", { env: { "A-B": "1" } })],
    ["a working directory outside the mounts", (s) => s.execute("true", { cwd: "/etc" })],
    ["a NaN timeout (which JSON cannot carry)", (s) => s.execute("true", { timeoutMs: Number.NaN })],
    ["a zero timeout", (s) => s.execute("true", { timeoutMs: 0 })],
  ])("rebuilds the local sandbox's error for %s", async (_label, op) => {
    const direct = await failure(op(local));
    expect(await failure(op(remote))).toEqual(direct);
  });

  it("passes command, timeout, cwd and env to the runner", async () => {
    const result = await remote.execute("echo hi", {
      timeoutMs: 1234,
      cwd: "/mnt/user-data/outputs",
      env: { GREETING: "hello" },
    });
    expect(result.stdout).toBe("echo hi\n");
    const spec = runner.specs.at(-1);
    expect([spec?.timeoutMs, spec?.cwd, spec?.env.GREETING]).toEqual([1234, "/mnt/user-data/outputs", "hello"]);
  });

  it("writes files the local sandbox reads", async () => {
    await remote.writeFile("/mnt/user-data/outputs/r.md", "report");
    await remote.writeFile("/mnt/user-data/outputs/r.md", "!", { append: true });
    await remote.writeBytes("/mnt/user-data/uploads/b.bin", new Uint8Array([0, 255]));
    expect(await local.readFile("/mnt/user-data/outputs/r.md")).toBe("report!");
    expect(Array.from(await local.readBytes("/mnt/user-data/uploads/b.bin"))).toEqual([0, 255]);
  });
});
