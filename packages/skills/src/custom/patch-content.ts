/**
 * The find/replace semantics of `skill_manage` `patch`: literal text, the
 * first occurrence by default, or exactly `expectedCount` occurrences.
 */
import { SkillsError } from "../errors.js";
import type { HistoryRecord } from "./history-record.js";

/** Result of {@link applyPatch}. */
export interface PatchResult {
  /** The patched text. */
  readonly content: string;
  /** How many occurrences were replaced. */
  readonly replacements: number;
  /** How many occurrences of `find` the original text had. */
  readonly matches: number;
}

/** Result of a store patch: the counts plus the history record. */
export interface PatchOutcome {
  /** Occurrences replaced (1 by default, or the expected count). */
  readonly replacements: number;
  /** Occurrences of `find` in the previous text. */
  readonly matches: number;
  readonly record: HistoryRecord;
}

function countOccurrences(text: string, find: string): number {
  let count = 0;
  for (let at = text.indexOf(find); at !== -1; at = text.indexOf(find, at + find.length)) count++;
  return count;
}

function replaceFirst(text: string, find: string, replace: string, limit: number): string {
  let out = "";
  let from = 0;
  for (let done = 0; done < limit; done++) {
    const at = text.indexOf(find, from);
    if (at === -1) break;
    out += text.slice(from, at) + replace;
    from = at + find.length;
  }
  return out + text.slice(from);
}

/**
 * Replaces literal `find` with `replace` (no regex, no `$` patterns), counting
 * non-overlapping occurrences like Python's `str.count`.
 *
 * @param content - the current SKILL.md text.
 * @param find - the literal text to look for (non-empty).
 * @param replace - the replacement text.
 * @param expectedCount - when given, the number of occurrences that must exist; all are replaced.
 * @returns the patched text and the counts.
 * @throws SkillsError `SKILL_INVALID` `"Patch target not found in SKILL.md."` when `find` does not occur,
 *   or `"Expected <e> replacements but found <k>."` when the count differs.
 * @example
 * ```ts
 * applyPatch("a a a", "a", "b");    // { content: "b a a", replacements: 1, matches: 3 }
 * applyPatch("a a a", "a", "b", 3); // { content: "b b b", replacements: 3, matches: 3 }
 * ```
 */
export function applyPatch(content: string, find: string, replace: string, expectedCount?: number): PatchResult {
  const matches = find === "" ? 0 : countOccurrences(content, find);
  if (matches === 0) {
    throw new SkillsError("SKILL_INVALID", "Patch target not found in SKILL.md.", {
      details: { reason: "patch-target-not-found" },
    });
  }
  if (expectedCount !== undefined && expectedCount !== matches) {
    throw new SkillsError("SKILL_INVALID", `Expected ${expectedCount} replacements but found ${matches}.`, {
      details: { reason: "patch-count-mismatch", expected: expectedCount, found: matches },
    });
  }
  const replacements = expectedCount ?? 1;
  return { content: replaceFirst(content, find, replace, replacements), replacements, matches };
}
