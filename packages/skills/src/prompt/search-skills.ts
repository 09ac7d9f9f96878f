import type { Skill } from "../model/skill.js";
import { compileQueryRegex, MAX_QUERY_CHARS } from "./query-regex.js";

/** Most skills a keyword or `+required` query returns (`select:` has no cap). */
export const DESCRIBE_SKILL_MAX_RESULTS = 5;

/**
 * Finds skills for a `describe_skill` query, in DeerFlow's three forms:
 *
 * - `select:a,b` returns exactly the named skills, uncapped, in catalogue order;
 * - `+req rest` keeps skills whose name contains `req` (case-insensitive),
 *   ranked by how many times the regex `rest` hits `name description`;
 * - anything else is a case-insensitive regex over `name description`:
 *   a match in the name scores 2, in the description only 1.
 *
 * An invalid (or backtracking-prone) regex is matched literally. Ties keep
 * catalogue order. Empty or whitespace-only queries and a bare `+` return
 * nothing. The two search forms return at most
 * {@link DESCRIBE_SKILL_MAX_RESULTS} skills. Queries are cut at 256 characters.
 *
 * @param skills - The skills to search (callers pass enabled, allowed ones).
 * @param query - The model's query.
 * @returns The matches, best first.
 * @example
 * ```ts
 * searchSkills(skills, "select:deep-research,data-analysis");
 * searchSkills(skills, "+podcast generate");
 * searchSkills(skills, "chart|graph");
 * ```
 */
export function searchSkills(skills: readonly Skill[], query: string): Skill[] {
  const q = query.slice(0, MAX_QUERY_CHARS).trim();
  if (q === "") return [];

  if (q.startsWith("select:")) {
    const wanted = new Set(
      q
        .slice("select:".length)
        .split(",")
        .map((n) => n.trim())
        .filter((n) => n !== ""),
    );
    return skills.filter((s) => wanted.has(s.name));
  }

  if (q.startsWith("+")) {
    const [required, ...rest] = q.slice(1).trim().split(/\s+/);
    if (!required) return [];
    const needle = required.toLowerCase();
    const candidates = skills.filter((s) => s.name.toLowerCase().includes(needle));
    const remainder = rest.join(" ");
    if (remainder === "") return candidates.slice(0, DESCRIBE_SKILL_MAX_RESULTS);
    const regex = compileQueryRegex(remainder, true);
    return rank(candidates, (s) => countMatches(regex, `${s.name} ${s.description}`), true);
  }

  const regex = compileQueryRegex(q);
  return rank(skills, (s) => (regex.test(s.name) ? 2 : regex.test(`${s.name} ${s.description}`) ? 1 : 0), false);
}

function rank(skills: readonly Skill[], score: (s: Skill) => number, keepUnmatched: boolean): Skill[] {
  const scored: { skill: Skill; score: number; index: number }[] = [];
  skills.forEach((skill, index) => {
    const value = score(skill);
    if (value > 0 || keepUnmatched) scored.push({ skill, score: value, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, DESCRIBE_SKILL_MAX_RESULTS).map((s) => s.skill);
}

function countMatches(regex: RegExp, text: string): number {
  let count = 0;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    count++;
    // A zero-length match would loop forever without stepping past it.
    if (m[0] === "") regex.lastIndex++;
  }
  return count;
}
