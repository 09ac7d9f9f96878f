/**
 * Folders for `LocalSandboxProvider`s under one temp root per test file: each
 * provider gets `base/` for the per-thread folders and `skills/` (mounted
 * read-only at `/mnt/skills`) holding one known SKILL.md the kit reads back.
 * The root is what the kit checks results against (`hostRoots`).
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SkillsFixture } from "../../src/testing/index.js";

/** Folders of one provider. */
export interface ProviderFolders {
  readonly baseDir: string;
  readonly skillsDir: string;
}

const SKILL = `---
name: kit-demo
description: A skill the sandbox conformance kit reads back; ünïcode included.
---

# kit-demo

Nothing to do.
`;

/** The skill every provider's skills folder holds, as the sandbox sees it. */
export const SKILLS_FIXTURE: SkillsFixture = { path: "/mnt/skills/public/kit-demo/SKILL.md", content: SKILL };

/**
 * Creates the temp root of a test file.
 *
 * @param label - Prefix of its name.
 * @returns Its real path (symlinks resolved, as the sandbox would report it).
 */
export async function createTempRoot(label: string): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `${label}-`)));
  // Bubblewrap as root runs commands as nobody, which must be able to enter the folders.
  await fs.chmod(root, 0o755);
  return root;
}

let counter = 0;

/**
 * Creates one provider's folders under `root`.
 *
 * @param root - From {@link createTempRoot}.
 * @returns The folders.
 */
export async function createProviderFolders(root: string): Promise<ProviderFolders> {
  const dir = path.join(root, `p${++counter}`);
  const baseDir = path.join(dir, "base");
  const skillsDir = path.join(dir, "skills");
  await fs.mkdir(path.join(skillsDir, "public", "kit-demo"), { recursive: true, mode: 0o755 });
  await fs.mkdir(baseDir, { recursive: true, mode: 0o755 });
  await fs.writeFile(path.join(skillsDir, "public", "kit-demo", "SKILL.md"), SKILL, { mode: 0o644 });
  return { baseDir, skillsDir };
}

/** A thread id unique within this process. */
export function uniqueThreadId(): string {
  return `kit-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
