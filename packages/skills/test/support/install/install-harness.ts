/**
 * Test-only harness for install tests: a fresh temp tree per test (custom
 * root, private temp dir, upload path) and assertions that a failed install
 * left nothing behind.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { SkillsError, type SkillsErrorCode } from "../../../src/errors.js";
import type { ScanReport, SkillScanner } from "../../../src/scanning/types.js";
import type { InstallOptions } from "../../../src/install/install.js";

/** Paths of the current test's sandbox; refreshed before each test. */
export interface InstallSandbox {
  dir: string;
  customRoot: string;
  tempDir: string;
  /** Where tests write the archive to install. */
  zip: string;
}

/** Registers hooks that create and remove a sandbox around every test. */
export function useInstallSandbox(prefix: string): InstallSandbox {
  const box: InstallSandbox = { dir: "", customRoot: "", tempDir: "", zip: "" };
  beforeEach(async () => {
    box.dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    box.customRoot = path.join(box.dir, "custom");
    box.tempDir = path.join(box.dir, "tmp");
    box.zip = path.join(box.dir, "upload.skill");
  });
  afterEach(async () => {
    await rm(box.dir, { recursive: true, force: true });
  });
  return box;
}

/** Install options pointing at the sandbox. */
export function sandboxOptions(box: InstallSandbox, extra: Partial<InstallOptions> = {}): InstallOptions {
  return { customRoot: box.customRoot, tempDir: box.tempDir, ...extra };
}

/** Awaits `p` and returns its SkillsError rejection (fails on anything else). */
export async function rejection(p: Promise<unknown>): Promise<SkillsError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!SkillsError.isInstance(err)) throw new Error(`expected a SkillsError, got ${String(err)}`);
  return err;
}

/** Asserts neither the custom root nor the temp dir holds anything. */
async function expectNothingLeft(box: InstallSandbox): Promise<void> {
  expect(existsSync(box.customRoot) ? await readdir(box.customRoot) : []).toEqual([]);
  expect(existsSync(box.tempDir) ? await readdir(box.tempDir) : []).toEqual([]);
}

/** Asserts the install failed with `code` and `message` and left nothing behind. */
export async function expectInstallRejected(
  box: InstallSandbox,
  p: Promise<unknown>,
  code: SkillsErrorCode,
  message: string | RegExp,
): Promise<SkillsError> {
  const err = await rejection(p);
  expect(err.code).toBe(code);
  if (typeof message === "string") expect(err.message).toBe(message);
  else expect(err.message).toMatch(message);
  await expectNothingLeft(box);
  return err;
}

/** A static scanner that reports nothing, optionally after `gate` resolves. */
export function cleanScanner(gate?: () => Promise<void>): SkillScanner {
  return {
    id: "fake-clean",
    async scanDirectory(): Promise<ScanReport> {
      await gate?.();
      return { findings: [], blocked: false, scannerErrors: [] };
    },
  };
}
