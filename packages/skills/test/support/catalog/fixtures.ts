/**
 * Fixtures for the catalog tests: temp skill trees shaped like the public
 * DeerFlow and Anthropic skill packages. Test-only; not exported.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Logger } from "../../../src/logger.js";

/** Creates a temp directory (remove it with `fs.rm(dir, { recursive: true, force: true })`). */
export async function makeTempDir(prefix = "skills-catalog-"): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** SKILL.md text with the given frontmatter lines and a short body. */
export function skillMarkdown(name: string, description: string, extra = ""): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n\n# ${name}\n\nSteps go here.\n`;
}

/** Writes `<root>/<rel>/SKILL.md` (directories included) and returns its path. */
export async function writeSkill(root: string, rel: string, content: string): Promise<string> {
  const dir = path.join(root, ...rel.split("/"));
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, "SKILL.md");
  await fs.writeFile(file, content);
  return file;
}

/**
 * A tree with the awkward shapes of real skill collections:
 * - `vercel-deploy-claimable/` holding `name: vercel-deploy`;
 * - `skill-reviewer/evals/fixtures/*\/SKILL.md` (must not register);
 * - a namespace folder `team/helper`;
 * - `.history/` and `.installing-x/` dot-folders;
 * - one skill with malformed YAML;
 * - a custom `deep-research` shadowing the public one.
 */
export async function writeRealisticTree(root: string): Promise<void> {
  const pub = path.join(root, "public");
  await writeSkill(pub, "deep-research", skillMarkdown("deep-research", "Systematic multi-angle web research."));
  await writeSkill(
    pub,
    "data-analysis",
    skillMarkdown("data-analysis", "Analyse Excel or CSV uploads & report.", "license: MIT\n"),
  );
  await writeSkill(
    pub,
    "vercel-deploy-claimable",
    skillMarkdown(
      "vercel-deploy",
      "Deploy to Vercel and return a claim URL.",
      'metadata:\n  author: vercel\n  version: "1.0.0"\n',
    ),
  );
  await writeSkill(
    pub,
    "skill-reviewer",
    skillMarkdown("skill-reviewer", "Review skill packages.", "allowed-tools:\n  - review_skill_package\n"),
  );
  await writeSkill(pub, "skill-reviewer/evals/fixtures/bad-skill", skillMarkdown("bad-skill", "An eval fixture."));
  await writeSkill(
    pub,
    "skill-reviewer/evals/fixtures/good-skill",
    skillMarkdown("good-skill", "Another eval fixture."),
  );
  await writeSkill(pub, "team/helper", skillMarkdown("team-helper", "A namespaced helper skill."));
  await writeSkill(pub, ".history/old", skillMarkdown("old-skill", "Must stay hidden."));
  await writeSkill(
    pub,
    "broken-yaml",
    "---\nname: broken-yaml\ndescription: this: breaks: yaml\n  - nope\n---\nbody\n",
  );
  // Anthropic-style package: name equals folder, long description, references/.
  await writeSkill(
    pub,
    "pdf",
    skillMarkdown(
      "pdf",
      "Comprehensive PDF manipulation toolkit for extracting text and tables.",
      "license: Proprietary. LICENSE.txt has complete terms\n",
    ),
  );
  await fs.mkdir(path.join(pub, "pdf", "references"), { recursive: true });
  await fs.writeFile(path.join(pub, "pdf", "references", "forms.md"), "# forms\n");
  const custom = path.join(root, "custom");
  await writeSkill(custom, "deep-research", skillMarkdown("deep-research", "My own research workflow."));
  await writeSkill(custom, "my-notes", skillMarkdown("my-notes", "Keep notes."));
  await writeSkill(custom, ".installing-abc", skillMarkdown("half-installed", "Not yet."));
}

/** A logger that records calls, for asserting on warnings. */
export function recordingLogger(): Logger & {
  readonly calls: { level: string; obj: Record<string, unknown>; msg: string }[];
} {
  const calls: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => void calls.push({ level, obj, msg });
  return { calls, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
