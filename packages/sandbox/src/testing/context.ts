/**
 * The kit's per-capability context: a fresh sandbox for each capability
 * (created in `beforeAll`, cleaned up in `afterAll`), scaled timeouts, unique
 * scratch directories and assertion helpers whose messages never print host
 * paths.
 */
import type { ConformanceExpect } from "@deerflow/kernel";
import { SandboxError, type SandboxErrorCode } from "../errors.js";
import { WORKSPACE_PATH } from "../limits.js";
import type { ExecuteResult, Sandbox } from "../sandbox.js";
import { guardHostPaths } from "./leak-guard.js";
import type { ResolvedOptions, SandboxRunner } from "./options.js";

/** What `makeSandbox` returns. */
export interface SandboxHandle {
  readonly sandbox: Sandbox;
  /** Called once after the capability's tests (stop processes, remove folders). */
  readonly cleanup?: () => Promise<void>;
}

/** Creates the sandbox under test; called once per capability. */
export type MakeSandbox = () => Promise<SandboxHandle>;

/** Test body. */
export type TestBody = () => Promise<void>;

/** Everything a capability file registers its tests with. */
export interface Kit {
  readonly options: ResolvedOptions;
  /** The injected `expect`. */
  readonly expect: ConformanceExpect;
  /** The capability's sandbox; only valid inside a test. */
  sandbox(): Sandbox;
  /** A virtual directory under the workspace, unique within this kit run (not created). */
  dir(label: string): string;
  /** `ms` scaled by `timeoutScale`. */
  ms(ms: number): number;
  /** Registers a test with a scaled timeout (default 30 s). */
  test(name: string, body: TestBody, timeoutMs?: number): void;
  /** Registers a test that runs only when `condition` holds (shown as skipped otherwise). */
  testIf(condition: boolean, name: string, body: TestBody, timeoutMs?: number): void;
  /** Replaces host roots by `<host root>` so a failure message cannot leak them. */
  redact(text: string): string;
}

let scratchCounter = 0;

/**
 * Registers one capability: a `describe` block with its own sandbox.
 *
 * @param runner - The injected test functions.
 * @param name - The capability (the describe's name).
 * @param makeSandbox - The implementation's factory.
 * @param options - Resolved kit options.
 * @param register - Registers the capability's tests on the {@link Kit}.
 */
export function capability(
  runner: SandboxRunner,
  name: string,
  makeSandbox: MakeSandbox,
  options: ResolvedOptions,
  register: (kit: Kit) => void,
): void {
  const { describe, it, beforeAll, afterAll } = runner;
  describe(name, () => {
    let handle: SandboxHandle | undefined;
    let guarded: Sandbox | undefined;
    beforeAll(async () => {
      handle = await makeSandbox();
      guarded = guardHostPaths(handle.sandbox, options.hostRoots);
    }, 60_000 * options.timeoutScale);
    afterAll(async () => {
      await handle?.cleanup?.();
    }, 60_000 * options.timeoutScale);

    const slug = name
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .toLowerCase();
    const redact = (text: string): string =>
      options.hostRoots.reduce((t, root) => t.split(root).join("<host root>"), text);
    const kit: Kit = {
      options,
      expect: runner.expect,
      sandbox: () => {
        if (guarded === undefined)
          throw new Error(`the sandbox of "${name}" was not created (see the beforeAll error)`);
        return guarded;
      },
      dir: (label) => `${WORKSPACE_PATH}/kit-${slug}-${++scratchCounter}-${label.replace(/[^A-Za-z0-9_.-]+/g, "-")}`,
      ms: (ms) => Math.round(ms * options.timeoutScale),
      test: (testName, body, timeoutMs = 30_000) => it(testName, body, timeoutMs * options.timeoutScale),
      testIf: (condition, testName, body, timeoutMs = 30_000) =>
        (condition ? it : it.skip)(testName, body, timeoutMs * options.timeoutScale),
      redact,
    };
    register(kit);
  });
}

/**
 * Awaits `promise` and checks it rejects with a {@link SandboxError} of one of `codes`.
 *
 * @param kit - For redaction of the failure message.
 * @param promise - The call expected to fail.
 * @param codes - Accepted codes (one, or several where the contract allows either).
 * @returns The error, for further checks.
 * @throws Error (failing the test) when the promise resolves or rejects otherwise.
 */
export async function expectSandboxError(
  kit: Kit,
  promise: Promise<unknown>,
  codes: SandboxErrorCode | readonly SandboxErrorCode[],
): Promise<SandboxError> {
  const accepted: readonly SandboxErrorCode[] = typeof codes === "string" ? [codes] : codes;
  let outcome: unknown;
  try {
    await promise;
  } catch (err) {
    outcome = err;
    if (SandboxError.isInstance(err) && accepted.includes(err.code)) return err;
  }
  const wanted = accepted.join(" or ");
  if (outcome === undefined) throw new Error(`expected a SandboxError ${wanted}, but the call succeeded`);
  const got = SandboxError.isInstance(outcome)
    ? `SandboxError ${outcome.code}: ${outcome.message}`
    : outcome instanceof Error
      ? `${outcome.name} (${String((outcome as { code?: unknown }).code ?? "no code")}): ${outcome.message}`
      : String(outcome);
  throw new Error(`expected a SandboxError ${wanted}, got ${kit.redact(got)}`);
}

/**
 * Checks that a command succeeded, with its (redacted) output in the failure message.
 *
 * @param kit - For redaction.
 * @param result - What `execute` returned.
 * @returns The same result.
 */
export function expectSuccess(kit: Kit, result: ExecuteResult): ExecuteResult {
  if (result.exitCode !== 0 || result.timedOut) {
    const detail = JSON.stringify({
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      stdout: result.stdout.slice(0, 500),
      stderr: result.stderr.slice(0, 500),
    });
    throw new Error(`command failed: ${kit.redact(detail)}`);
  }
  return result;
}

export { shellQuote } from "../internal/shell-quote.js";

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `probe` until it returns true or `timeoutMs` passes.
 *
 * @returns Whether the probe succeeded in time.
 */
export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, intervalMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(intervalMs);
  }
}
