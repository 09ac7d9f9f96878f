import path from "node:path";
import { SKILL_FILE_NAME } from "../limits.js";
import type { SkillFrontmatter, ValidationIssue } from "../model/frontmatter.js";
import { analyzeSkillMarkdown } from "./analyze.js";
import { readSkillFile } from "./read-skill-file.js";

/** Result of strict validation: every problem, structured. */
export interface ValidationResult {
  /** True when there are no errors (warnings allowed). */
  readonly ok: boolean;
  /** The trimmed frontmatter name, when it is a string. */
  readonly name: string | undefined;
  /** Every error, in DeerFlow's check order: `errors[0].message` is DeerFlow's message. */
  readonly errors: readonly ValidationIssue[];
  /** Problems that do not invalidate the skill. */
  readonly warnings: readonly ValidationIssue[];
  /** Normalised frontmatter when `ok`. */
  readonly frontmatter: SkillFrontmatter | undefined;
}

/** Options of the strict validators. */
export interface ValidateOptions {
  /** The frontmatter name must equal this (editing an existing skill). */
  readonly expectedName?: string;
  /**
   * Require `name` to equal the directory name, as the specification asks.
   * Default true; archive installs turn it off because the install folder is
   * named from the frontmatter anyway.
   */
  readonly requireDirectoryNameMatch?: boolean;
  /** Directory name to compare against for {@link validateSkillMarkdown}. */
  readonly directoryName?: string;
}

/**
 * Strictly validates SKILL.md text. Never throws on bad content.
 *
 * @example
 * ```ts
 * const r = validateSkillMarkdown(text, { expectedName: "my-skill" });
 * if (!r.ok) for (const e of r.errors) console.error(`${e.code}: ${e.message}`);
 * ```
 */
export function validateSkillMarkdown(content: string, options: ValidateOptions = {}): ValidationResult {
  const analysis = analyzeSkillMarkdown(content, {
    ...(options.expectedName !== undefined ? { expectedName: options.expectedName } : {}),
    ...(options.directoryName !== undefined && options.requireDirectoryNameMatch !== false
      ? { directoryName: options.directoryName }
      : {}),
  });
  const errors = analysis.issues;
  return {
    ok: errors.length === 0,
    name: analysis.name,
    errors,
    warnings: analysis.notes,
    frontmatter: errors.length === 0 ? analysis.frontmatter : undefined,
  };
}

/** Strictly validates the SKILL.md in `dir` (size-capped, UTF-8 checked). */
export async function validateSkillDirectory(dir: string, options: ValidateOptions = {}): Promise<ValidationResult> {
  const read = await readSkillFile(path.join(dir, SKILL_FILE_NAME));
  if (!read.ok) return { ok: false, name: undefined, errors: [read.issue], warnings: [], frontmatter: undefined };
  return validateSkillMarkdown(read.text, {
    ...options,
    directoryName: options.directoryName ?? path.basename(path.resolve(dir)),
  });
}

/** DeerFlow's single-line summary: the first error's message, or `"Skill is valid!"`. */
export function validationMessage(result: ValidationResult): string {
  return result.errors[0]?.message ?? "Skill is valid!";
}
