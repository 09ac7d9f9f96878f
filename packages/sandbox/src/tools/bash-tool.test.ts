import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { formatTimeoutNotice } from "./bash-output.js";
import { createBashTool } from "./bash-tool.js";
import { MemorySandbox } from "../../test/support/tools/memory-sandbox.js";
import { harness } from "../../test/support/tools/tool-harness.js";

describe("createBashTool", () => {
  it("returns the command's stdout", async () => {
    const { call } = harness({ isolated: true, onExecute: () => ({ stdout: "hello\n" }) });
    expect(await call("bash", { description: "greet", command: "echo hello" })).toBe("hello\n");
  });

  it("runs in the workspace with the default 600 s timeout", async () => {
    const { call, sandbox } = harness({ isolated: true });
    await call("bash", { command: "pwd" });
    expect(sandbox.executions[0]?.options).toMatchObject({ cwd: "/mnt/user-data/workspace", timeoutMs: 600_000 });
    expect(sandbox.executions[0]?.options?.env).toBeUndefined();
  });

  it("assembles stderr and a non-zero exit code", async () => {
    const { call } = harness({ isolated: true, onExecute: () => ({ stdout: "out", stderr: "boom", exitCode: 2 }) });
    expect(await call("bash", { command: "x" })).toBe("out\nStd Error:\nboom\nExit Code: 2");
  });

  it("says (no output) for a silent success", async () => {
    const { call } = harness({ isolated: true });
    expect(await call("bash", { command: "true" })).toBe("(no output)");
  });

  it("names the configured timeout in the timeout notice", async () => {
    const { call, sandbox } = harness(
      { isolated: true, onExecute: () => ({ stdout: "started", exitCode: null, signal: "SIGKILL", timedOut: true }) },
      { bashTimeoutMs: 1500 },
    );
    expect(await call("bash", { command: "sleep 9" })).toBe(`started\n${formatTimeoutNotice(1500)}`);
    expect(formatTimeoutNotice(1500)).toContain("after 1.5 seconds and");
    expect(sandbox.executions[0]?.options?.timeoutMs).toBe(1500);
  });

  it("injects secrets as environment and redacts values of eight or more characters", async () => {
    const { call, sandbox } = harness(
      { isolated: true, onExecute: (_c, o) => ({ stdout: `${o?.env?.["API_KEY"]} ${o?.env?.["REGION"]}` }) },
      { secrets: { API_KEY: "sk-live-1234567890", REGION: "eu-1" } },
    );
    expect(await call("bash", { command: "env" })).toBe("[redacted] eu-1");
    expect(sandbox.executions[0]?.options?.env).toEqual({ API_KEY: "sk-live-1234567890", REGION: "eu-1" });
  });

  it("resolves secrets per call from the tool call's config", async () => {
    const { call } = harness(
      { isolated: true, onExecute: (_c, o) => ({ stdout: o?.env?.["TOKEN"] ?? "none" }) },
      { secrets: (config) => ({ TOKEN: `token-for-${String(config?.configurable?.["thread_id"])}` }) },
    );
    expect(await call("bash", { command: "echo $TOKEN" }, { configurable: { thread_id: "t-77" } })).toBe("[redacted]");
  });

  it("middle-truncates long output to bashOutputMaxChars", async () => {
    const { call } = harness({ isolated: true, onExecute: () => ({ stdout: "a".repeat(30_000) }) });
    const out = await call("bash", { command: "yes" });
    expect(out.length).toBeLessThanOrEqual(20_000);
    expect(out).toContain("\n... [middle truncated: ");
  });

  it("returns everything when bashOutputMaxChars is 0", async () => {
    const { call } = harness(
      { isolated: true, onExecute: () => ({ stdout: "a".repeat(30_000) }) },
      { bashOutputMaxChars: 0 },
    );
    expect((await call("bash", { command: "yes" })).length).toBe(30_000);
  });

  it("refuses unsafe commands on a non-isolated sandbox without running them", async () => {
    const { call, sandbox } = harness({ isolated: false });
    expect(await call("bash", { command: "cat /etc/passwd" })).toBe(
      "Error: Unsafe absolute paths in command: /etc/passwd. Use paths under /mnt/user-data",
    );
    expect(sandbox.executions).toHaveLength(0);
  });

  it("validates when the sandbox does not say whether it is isolated", async () => {
    const { call, sandbox } = harness();
    expect(await call("bash", { command: "cd /tmp" })).toBe(
      "Error: Unsafe working directory change in command: cd /tmp. Use paths under /mnt/user-data",
    );
    expect(sandbox.executions).toHaveLength(0);
  });

  it("runs the same command on an isolated sandbox", async () => {
    const { call, sandbox } = harness({ isolated: true, onExecute: () => ({ stdout: "root:x:0:0" }) });
    expect(await call("bash", { command: "cat /etc/passwd" })).toBe("root:x:0:0");
    expect(sandbox.executions).toHaveLength(1);
  });

  it("lets the isolated option override the sandbox's own flag", async () => {
    const { call, sandbox } = harness({ isolated: true }, { isolated: false });
    expect(await call("bash", { command: "ls /" })).toBe(
      "Error: Unsafe absolute paths in command: /. Use paths under /mnt/user-data",
    );
    expect(sandbox.executions).toHaveLength(0);
  });

  it("skips validation with hostBashPolicy off", async () => {
    const { call, sandbox } = harness({ isolated: false }, { hostBashPolicy: "off" });
    await call("bash", { command: "cat /etc/passwd" });
    expect(sandbox.executions).toHaveLength(1);
  });

  it("allows the sandbox's configured mounts in host commands", async () => {
    const mounts = [{ virtualPath: "/mnt/data", hostPath: "/srv/data", readOnly: true }];
    const { call, sandbox } = harness({ isolated: false, mounts });
    await call("bash", { command: "cat /mnt/data/x.csv" });
    expect(sandbox.executions[0]?.command).toBe("cat /mnt/data/x.csv");
  });

  it("returns a SandboxError's message", async () => {
    const { call, sandbox } = harness({ isolated: false });
    sandbox.failNext.set("execute", new SandboxError("HOST_EXECUTION_DISABLED", "Host bash execution is disabled."));
    expect(await call("bash", { command: "ls" })).toBe("Error: Host bash execution is disabled.");
  });

  it("reports unexpected errors by type without host paths", async () => {
    const { call, sandbox } = harness({ isolated: true });
    sandbox.failNext.set("execute", new TypeError("spawn /home/alice/.deerflow/bin/sh ENOENT"));
    expect(await call("bash", { command: "ls" })).toBe(
      "Error: Unexpected error executing command: TypeError: spawn <host path> ENOENT",
    );
  });

  it("passes the call's abort signal to the sandbox", async () => {
    const { call, sandbox } = harness({ isolated: true });
    const controller = new AbortController();
    await call("bash", { command: "sleep 1" }, { signal: controller.signal });
    expect(sandbox.executions[0]?.options?.signal).toBeInstanceOf(AbortSignal);
  });
});

describe("createBashTool with getSandbox", () => {
  it("resolves the sandbox from the tool call's thread id", async () => {
    const sandboxes = new Map([
      ["t1", new MemorySandbox({ id: "s1", isolated: true, onExecute: () => ({ stdout: "from t1" }) })],
    ]);
    const bash = createBashTool({
      getSandbox: async (config) => {
        const found = sandboxes.get(String(config?.configurable?.["thread_id"]));
        if (found === undefined) throw new SandboxError("UNAVAILABLE", "No sandbox for this thread");
        return found;
      },
    });
    expect(await bash.invoke({ command: "x" }, { configurable: { thread_id: "t1" } })).toBe("from t1");
    expect(await bash.invoke({ command: "x" }, { configurable: { thread_id: "t2" } })).toBe(
      "Error: No sandbox for this thread",
    );
  });

  it("reports an unexpected acquisition failure", async () => {
    const bash = createBashTool({ getSandbox: () => Promise.reject(new RangeError("pool exhausted")) });
    expect(await bash.invoke({ command: "x" })).toBe(
      "Error: Unexpected error initializing sandbox: RangeError: pool exhausted",
    );
  });
});
