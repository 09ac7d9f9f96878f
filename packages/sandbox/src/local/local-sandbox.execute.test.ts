import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { DEFAULT_COMMAND_TIMEOUT_MS, MAX_STREAM_OUTPUT_BYTES } from "../limits.js";
import { LocalSandbox } from "./local-sandbox.js";
import { RecordingRunner, createFixture, expectCode, type Fixture } from "../../test/support/local/thread-fixture.js";

const WS = "/mnt/user-data/workspace";
let fx: Fixture | undefined;

async function fixture(...args: Parameters<typeof createFixture>): Promise<Fixture> {
  fx = await createFixture(...args);
  return fx;
}

afterEach(async () => {
  if (fx !== undefined) await fs.rm(fx.tmp, { recursive: true, force: true });
  fx = undefined;
});

describe("LocalSandbox.execute", () => {
  it("hands the runner a complete spec with defaults", async () => {
    const { sandbox, runner, mounts } = await fixture();
    const result = await sandbox.execute("ls -la");
    expect(result).toEqual(runner.result);
    expect(runner.last).toMatchObject({
      command: "ls -la",
      cwd: WS,
      mounts,
      timeoutMs: DEFAULT_COMMAND_TIMEOUT_MS,
      maxOutputBytes: MAX_STREAM_OUTPUT_BYTES,
      limits: {},
      network: false,
    });
    expect("signal" in runner.last).toBe(false);
  });

  it("passes configured limits, network, timeout and output cap", async () => {
    const { sandbox, runner } = await fixture({
      options: { limits: { cpuSeconds: 5, processes: 64 }, network: true, defaultTimeoutMs: 1234, maxOutputBytes: 99 },
    });
    await sandbox.execute("true");
    expect(runner.last).toMatchObject({
      limits: { cpuSeconds: 5, processes: 64 },
      network: true,
      timeoutMs: 1234,
      maxOutputBytes: 99,
    });
    await sandbox.execute("true", { timeoutMs: 50 });
    expect(runner.last.timeoutMs).toBe(50);
  });

  it("passes the abort signal through", async () => {
    const { sandbox, runner } = await fixture();
    const controller = new AbortController();
    await sandbox.execute("true", { signal: controller.signal });
    expect(runner.last.signal).toBe(controller.signal);
  });

  it("scrubs secrets from the base environment and lets per-call variables win", async () => {
    const { sandbox, runner } = await fixture({
      options: {
        env: {
          PATH: "/usr/bin",
          HOME: "/home/app",
          OPENAI_API_KEY: "sk-secret",
          DATABASE_URL: "postgres://u:p@h/db",
          GITHUB_TOKEN: "gh",
        },
      },
    });
    await sandbox.execute("env", { env: { HOME: "/mnt/user-data/workspace", GITHUB_TOKEN: "injected-on-purpose" } });
    expect(runner.last.env).toEqual({
      PATH: "/usr/bin",
      HOME: "/mnt/user-data/workspace",
      GITHUB_TOKEN: "injected-on-purpose",
    });
  });

  it("starts from the runner's own base environment when none is configured", async () => {
    const { sandbox, runner } = await fixture({
      runner: new RecordingRunner({ PATH: "/usr/bin:/bin", LANG: "C.UTF-8" }),
    });
    await sandbox.execute("env", { env: { LANG: "de_DE.UTF-8" } });
    expect(runner.last.env).toEqual({ PATH: "/usr/bin:/bin", LANG: "de_DE.UTF-8" });
  });

  it("falls back to the scrubbed process environment", async () => {
    const { sandbox, runner } = await fixture();
    process.env.SANDBOX_TEST_API_KEY = "should-not-leak";
    try {
      await sandbox.execute("env");
    } finally {
      delete process.env.SANDBOX_TEST_API_KEY;
    }
    expect(runner.last.env.SANDBOX_TEST_API_KEY).toBeUndefined();
    expect(runner.last.env.PATH).toBe(process.env.PATH);
  });

  it.each(["1BAD", "A-B", "A=B", "", "A B", "É"])("rejects the env name %j without running anything", async (name) => {
    const { sandbox, runner } = await fixture();
    await expectCode(sandbox.execute("true", { env: { [name]: "x" } }), "INVALID_ARGUMENT");
    expect(runner.specs).toEqual([]);
  });

  it("runs in the given cwd, normalised", async () => {
    const { sandbox, runner, workspace } = await fixture();
    await fs.mkdir(path.join(workspace, "sub"));
    await sandbox.execute("pwd", { cwd: `${WS}//sub/` });
    expect(runner.last.cwd).toBe(`${WS}/sub`);
    await sandbox.execute("pwd", { cwd: "/mnt/skills/public" });
    expect(runner.last.cwd).toBe("/mnt/skills/public");
  });

  it("refuses a cwd outside the mounts, escaping, missing or not a directory", async () => {
    const { sandbox, runner, workspace } = await fixture();
    await fs.writeFile(path.join(workspace, "f.txt"), "x");
    await fs.symlink("/etc", path.join(workspace, "etc"));
    await expectCode(sandbox.execute("pwd", { cwd: "/etc" }), "PATH_NOT_ALLOWED");
    await expectCode(sandbox.execute("pwd", { cwd: `${WS}/../..` }), "PATH_ESCAPE");
    await expectCode(sandbox.execute("pwd", { cwd: `${WS}/etc` }), "PATH_ESCAPE");
    await expectCode(sandbox.execute("pwd", { cwd: `${WS}/missing` }), "NOT_FOUND");
    await expectCode(sandbox.execute("pwd", { cwd: `${WS}/f.txt` }), "NOT_A_DIRECTORY");
    expect(runner.specs).toEqual([]);
  });

  it("rejects an aborted signal with ABORTED before anything runs", async () => {
    const { sandbox, runner } = await fixture();
    const controller = new AbortController();
    controller.abort();
    await expectCode(
      sandbox.execute("true", { signal: controller.signal, cwd: "/mnt/user-data/workspace/missing" }),
      "ABORTED",
    );
    expect(runner.specs).toEqual([]);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])("rejects the timeout %s", async (timeoutMs) => {
    const { sandbox } = await fixture();
    await expectCode(sandbox.execute("true", { timeoutMs }), "INVALID_ARGUMENT");
  });

  it("passes runner rejections through", async () => {
    const runner = new RecordingRunner();
    runner.run = async () => {
      throw new SandboxError("HOST_EXECUTION_DISABLED", "disabled");
    };
    const { sandbox } = await fixture({ runner });
    await expectCode(sandbox.execute("true"), "HOST_EXECUTION_DISABLED");
  });
});

describe("LocalSandbox construction", () => {
  const runner = new RecordingRunner();

  it.each([
    [[{ virtualPath: "relative", hostPath: "/srv", readOnly: false }]],
    [[{ virtualPath: "/mnt/a/", hostPath: "/srv", readOnly: false }]],
    [[{ virtualPath: "/mnt/a/../b", hostPath: "/srv", readOnly: false }]],
    [[{ virtualPath: "/mnt/a", hostPath: "srv", readOnly: false }]],
    [
      [
        { virtualPath: "/mnt/a", hostPath: "/srv/1", readOnly: false },
        { virtualPath: "/mnt/a", hostPath: "/srv/2", readOnly: false },
      ],
    ],
  ])("rejects malformed mounts %j with CONFIG_INVALID", (mounts) => {
    expect(() => new LocalSandbox({ id: "x", mounts, runner })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
  });

  it("maps host paths back to virtual paths", async () => {
    const { sandbox, workspace } = await fixture();
    expect(sandbox.toVirtualPath(path.join(workspace, "a.txt"))).toBe(`${WS}/a.txt`);
    expect(sandbox.toVirtualPath("/etc/passwd")).toBeUndefined();
  });
});
