import fs from "node:fs/promises";
import path from "node:path";
import { LocalSandboxProvider, createDefaultRunner } from "@deerflow/sandbox";
import { SkillCatalog } from "@deerflow/skills";
import { writeFiles } from "./temp-dir.js";

export const SKILL_MD = `---
name: deep-research
description: Systematic multi-source research. Use when the user asks to research or investigate a topic.
---

# Deep research

1. Split the question into sub-questions.
2. Gather and cross-check sources.
`;

/** A skills root with one public skill, and a second one disabled in extensions_config.json. */
export async function makeSkillsRoot(
  dir: string,
  options: { disabled?: string } = {},
): Promise<{ root: string; extensionsConfigPath: string }> {
  const root = path.join(dir, "skills");
  await writeFiles(root, { "public/deep-research/SKILL.md": SKILL_MD });
  await fs.mkdir(path.join(root, "custom"), { recursive: true });
  const extensionsConfigPath = path.join(dir, "extensions_config.json");
  if (options.disabled !== undefined) {
    await writeFiles(root, {
      [`public/${options.disabled}/SKILL.md`]: `---\nname: ${options.disabled}\ndescription: A disabled skill about secrets.\n---\n\nDo secret things.\n`,
    });
    await writeFiles(dir, {
      "extensions_config.json": JSON.stringify({ skills: { [options.disabled]: { enabled: false } } }),
    });
  }
  return { root, extensionsConfigPath };
}

/** A LocalSandboxProvider in a temp dir: bubblewrap when available, else host commands (tests only). */
export async function makeProvider(dir: string, skillsDir?: string): Promise<LocalSandboxProvider> {
  const runner = await createDefaultRunner({ allowHostBash: true });
  return new LocalSandboxProvider({
    baseDir: path.join(dir, "data"),
    runner,
    ...(skillsDir === undefined ? {} : { skillsDir }),
  });
}

export function catalogFor(root: string, extensionsConfigPath: string): SkillCatalog {
  return new SkillCatalog({ root, extensionsConfigPath });
}
