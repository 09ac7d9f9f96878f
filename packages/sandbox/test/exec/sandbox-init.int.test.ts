import { spawn, type ChildProcess } from "node:child_process";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { SandboxInit } from "../../src/exec/sandbox-init.js";
import { isRunning, waitFor } from "../support/exec/processes.js";

describe("SandboxInit", () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
  });

  const sleeper = (): ChildProcess => {
    const child = spawn("sleep", ["1000"], { stdio: "ignore" });
    children.push(child);
    return child;
  };
  const announce = (pid: number): SandboxInit => {
    const init = new SandboxInit();
    const pipe = new PassThrough();
    init.watch(pipe);
    pipe.write(`{\n    "child-pid": ${pid},\n`);
    return init;
  };

  it("kills the announced process when it descends from the leader", async () => {
    const target = sleeper();
    const init = announce(target.pid as number);
    expect(init.pid).toBe(target.pid);
    expect(init.kill(process.pid)).toBe(true);
    expect(await waitFor(() => !isRunning(target.pid as number))).toBe(true);
  });

  it("refuses to kill an announced process outside the leader's tree", () => {
    const target = sleeper();
    const unrelatedLeader = sleeper();
    const init = announce(target.pid as number);
    expect(init.kill(unrelatedLeader.pid as number)).toBe(false);
    expect(isRunning(target.pid as number)).toBe(true);
  });

  it("does nothing before a pid was announced", () => {
    expect(new SandboxInit().kill(process.pid)).toBe(false);
  });
});
