import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HostRunner } from "../exec/host-runner.js";
import { loadSandboxProvider } from "../provider-loader.js";
import { createLocalSandboxProvider, LocalSandboxProvider } from "./local-sandbox-provider.js";

describe("createLocalSandboxProvider", () => {
  let baseDir: string;
  beforeEach(async () => {
    baseDir = await mkdtemp(path.join(os.tmpdir(), "create-local-provider-"));
  });
  afterEach(async () => {
    await rm(baseDir, { recursive: true, force: true });
  });

  it("uses the given runner and reports its isolation on the sandbox", async () => {
    const provider = await createLocalSandboxProvider({ baseDir, runner: new HostRunner() });
    const sandbox = await provider.acquire("t1");
    expect(sandbox.isolated).toBe(false);
    await provider.shutdown();
  });

  it("is loadable from plain configuration through loadSandboxProvider", async () => {
    const module = pathToFileURL(path.resolve("src/local/local-sandbox-provider.ts")).href;
    const provider = await loadSandboxProvider({
      use: `${module}:createLocalSandboxProvider`,
      options: { baseDir, allowHostBash: true },
    });
    expect(provider).toBeInstanceOf(LocalSandboxProvider);
    const sandbox = await provider.acquire("t2", "alice");
    expect(sandbox.id).toBe("local:alice:t2");
    const r = await sandbox.execute("echo hi");
    expect(r.stdout).toBe("hi\n");
    await provider.shutdown();
  });
});
