import path from "node:path";
import { silentLogger, type Logger } from "../logger.js";
import type { ValidationIssue } from "../model/frontmatter.js";
import type { Skill, SkillCategory } from "../model/skill.js";
import { analyzeSkillMarkdown, BLOCKING_ISSUE_CODES } from "./analyze.js";
import { readSkillFile } from "./read-skill-file.js";

/** Where a SKILL.md sits, for the lenient loader. */
export interface LoadSkillOptions {
  readonly category: SkillCategory;
  /** The category root the skill was found under (to compute `relativePath`). */
  readonly categoryRoot: string;
  /** Enabled state to stamp on the result (default true). */
  readonly enabled?: boolean;
  readonly logger?: Logger;
}

/** A loaded skill with its warnings, or the reason it was dropped. */
export type SkillLoadResult =
  | { readonly ok: true; readonly skill: Skill; readonly warnings: readonly ValidationIssue[] }
  | { readonly ok: false; readonly file: string; readonly reason: ValidationIssue };

/**
 * Lenient loader: turns one SKILL.md into a {@link Skill}, or drops it with a
 * specific reason that is also logged. It never throws for a bad file; only
 * unexpected I/O errors (permissions, EIO) propagate.
 */
export async function loadSkillFile(file: string, options: LoadSkillOptions): Promise<SkillLoadResult> {
  const logger = options.logger ?? silentLogger;
  const skillDir = path.dirname(file);
  const read = await readSkillFile(file);
  if (!read.ok) return drop(logger, file, read.issue);
  const analysis = analyzeSkillMarkdown(read.text, { directoryName: path.basename(skillDir) });
  const blocking = analysis.issues.find((i) => BLOCKING_ISSUE_CODES.has(i.code));
  if (blocking || !analysis.frontmatter) {
    const reason = blocking ?? { code: "invalid", field: null, message: "Skill frontmatter is invalid" };
    const extra: Record<string, unknown> = {};
    if (analysis.yamlError?.line !== undefined) extra["line"] = analysis.yamlError.line + 2;
    if (analysis.yamlError?.hint) extra["hint"] = analysis.yamlError.hint;
    return drop(logger, file, reason, extra);
  }
  const warnings = [...analysis.issues, ...analysis.notes];
  for (const w of warnings)
    logger.warn({ file, code: w.code, field: w.field }, `Skill loaded with a warning: ${w.message}`);
  const fm = analysis.frontmatter;
  const relative = path.relative(options.categoryRoot, skillDir).split(path.sep).join("/");
  const skill: Skill = {
    ...fm,
    skillDir,
    skillFile: file,
    relativePath: relative === "" ? "." : relative,
    category: options.category,
    enabled: options.enabled ?? true,
  };
  return { ok: true, skill, warnings };
}

function drop(
  logger: Logger,
  file: string,
  reason: ValidationIssue,
  extra: Record<string, unknown> = {},
): SkillLoadResult {
  logger.warn({ file, code: reason.code, ...extra }, `Skipping skill: ${reason.message}`);
  return { ok: false, file, reason };
}
