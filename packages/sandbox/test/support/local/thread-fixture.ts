/**
 * Fixtures for the `src/local` tests: a temp tree shaped like a provider's
 * thread folders (plus a second thread and an outside folder to escape to), a
 * recording {@link CommandRunner}, and an error helper. Test-only; not exported.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { SandboxError, type SandboxErrorCode } from "../../../src/errors.js";
import type { CommandRunner, CommandSpec } from "../../../src/exec/command-runner.js";
import { OUTPUTS_PATH, SKILLS_PATH, UPLOADS_PATH, WORKSPACE_PATH } from "../../../src/limits.js";
import type { Mount } from "../../../src/mount.js";
import type { ExecuteResult } from "../../../src/sandbox.js";
import { LocalSandbox, type LocalSandboxOptions } from "../../../src/local/local-sandbox.js";

/** A runner that runs nothing: it records each spec and returns a fixed result. */
export class RecordingRunner implements CommandRunner {
  readonly kind = "recording";
  readonly isolated = false;
  readonly specs: CommandSpec[] = [];
  result: ExecuteResult = { stdout: "ok\n", stderr: "", exitCode: 0, signal: null, timedOut: false, truncated: false };
  /** @param base - What `baseEnvironment()` returns; the method is absent when omitted. */
  constructor(base?: Record<string, string>) {
    if (base !== undefined) this.baseEnvironment = () => ({ ...base });
  }

  /** Present only when a base environment was given to the constructor. */
  baseEnvironment?: () => Record<string, string>;

  /** Records the spec and returns {@link RecordingRunner.result}. */
  async run(spec: CommandSpec): Promise<ExecuteResult> {
    this.specs.push(spec);
    return this.result;
  }

  /** The last spec run. */
  get last(): CommandSpec {
    const spec = this.specs[this.specs.length - 1];
    if (spec === undefined) throw new Error("no command was run");
    return spec;
  }
}

/** Host folders of a fixture. */
export interface Fixture {
  /** Temp root (realpath); every host path below lives under it. */
  readonly tmp: string;
  readonly workspace: string;
  readonly uploads: string;
  readonly outputs: string;
  readonly skills: string;
  /** Another thread's workspace, which the sandbox must never reach. */
  readonly otherThread: string;
  /** A folder outside every mount. */
  readonly outside: string;
  readonly mounts: Mount[];
  readonly runner: RecordingRunner;
  readonly sandbox: LocalSandbox;
}

/**
 * Creates the temp tree and a sandbox over it.
 *
 * @param overrides - Extra mounts and sandbox options.
 * @returns The fixture; remove `tmp` afterwards.
 */
export async function createFixture(
  overrides: {
    extraMounts?: (tmp: string) => Promise<Mount[]>;
    options?: Partial<LocalSandboxOptions>;
    runner?: RecordingRunner;
  } = {},
): Promise<Fixture> {
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-local-")));
  const thread = path.join(tmp, "users", "default", "threads", "t1", "user-data");
  const otherThread = path.join(tmp, "users", "default", "threads", "t2", "user-data", "workspace");
  const folders = {
    workspace: path.join(thread, "workspace"),
    uploads: path.join(thread, "uploads"),
    outputs: path.join(thread, "outputs"),
    skills: path.join(tmp, "skills"),
    outside: path.join(tmp, "outside"),
  };
  for (const dir of [...Object.values(folders), otherThread]) await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(otherThread, "secret.txt"), "needle: other thread secret\n");
  await fs.writeFile(path.join(folders.outside, "secret.txt"), "needle: outside secret\n");
  await fs.mkdir(path.join(folders.skills, "public", "pdf"), { recursive: true });
  await fs.writeFile(path.join(folders.skills, "public", "pdf", "SKILL.md"), "# PDF skill\n");
  const mounts: Mount[] = [
    { virtualPath: WORKSPACE_PATH, hostPath: folders.workspace, readOnly: false },
    { virtualPath: UPLOADS_PATH, hostPath: folders.uploads, readOnly: false },
    { virtualPath: OUTPUTS_PATH, hostPath: folders.outputs, readOnly: false },
    { virtualPath: SKILLS_PATH, hostPath: folders.skills, readOnly: true },
    ...((await overrides.extraMounts?.(tmp)) ?? []),
  ];
  const runner = overrides.runner ?? new RecordingRunner();
  const sandbox = new LocalSandbox({ id: "local:default:t1", mounts, runner, ...overrides.options });
  return { tmp, ...folders, otherThread, mounts, runner, sandbox };
}

/**
 * Awaits a rejection and checks it is a `SandboxError` with the given code.
 *
 * @param promise - The call.
 * @param code - Expected code.
 * @returns The error.
 */
export async function expectCode(promise: Promise<unknown>, code: SandboxErrorCode): Promise<SandboxError> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  expect(SandboxError.isInstance(caught), `expected a SandboxError ${code}, got ${String(caught)}`).toBe(true);
  const err = caught as SandboxError;
  expect(err.code).toBe(code);
  return err;
}
