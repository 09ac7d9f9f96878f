import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { BubblewrapRunner } from "./bubblewrap-runner.js";
import { createDefaultRunner, DisabledRunner, HOST_EXECUTION_DISABLED_MESSAGE } from "./default-runner.js";
import { HostRunner } from "./host-runner.js";

const spec = {
  command: "echo hi",
  mounts: [],
  cwd: "/mnt/user-data/workspace",
  env: {},
  timeoutMs: 1000,
  maxOutputBytes: 100,
  limits: {},
  network: false,
};

describe("createDefaultRunner", () => {
  it("uses bubblewrap when it is available", async () => {
    const runner = await createDefaultRunner({ bubblewrapAvailable: true });
    expect(runner).toBeInstanceOf(BubblewrapRunner);
    expect(runner).toMatchObject({ kind: "bubblewrap", isolated: true });
  });

  it("falls back to the host only with allowHostBash", async () => {
    const runner = await createDefaultRunner({ bubblewrapAvailable: false, allowHostBash: true });
    expect(runner).toBeInstanceOf(HostRunner);
    expect(runner).toMatchObject({ kind: "host", isolated: false });
  });

  it("refuses commands without bubblewrap and without allowHostBash", async () => {
    const runner = await createDefaultRunner({ bubblewrapAvailable: false });
    expect(runner).toBeInstanceOf(DisabledRunner);
    const err = await runner.run(spec).catch((e: unknown) => e);
    expect(SandboxError.isInstance(err)).toBe(true);
    expect(err).toMatchObject({ code: "HOST_EXECUTION_DISABLED", message: HOST_EXECUTION_DISABLED_MESSAGE });
  });
});

describe("HOST_EXECUTION_DISABLED_MESSAGE", () => {
  it("keeps DeerFlow's wording with our remedies", () => {
    expect(HOST_EXECUTION_DISABLED_MESSAGE).toBe(
      "Host bash execution is disabled for LocalSandboxProvider because it is not a secure sandbox boundary. Install bubblewrap (bwrap) or switch to RemoteSandboxProvider for isolated bash access, or set allowHostBash: true only in a fully trusted local environment.",
    );
  });
});
