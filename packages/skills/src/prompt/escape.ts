import type { SkillCategory } from "../model/skill.js";

const XML_SPECIAL = /[&<>]/g;
const XML_ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * Escapes `&`, `<` and `>` (quotes are left alone, as DeerFlow does), so a
 * skill name, description or path taken from untrusted frontmatter cannot
 * close or forge a prompt tag such as `</available_skills>`.
 *
 * @param text - Any text.
 * @returns The text with the three characters replaced by entities.
 */
export function escapeXml(text: string): string {
  // The test is cheap and most descriptions need no replacement at all.
  return /[&<>]/.test(text) ? text.replace(XML_SPECIAL, (c) => XML_ENTITIES[c] ?? c) : text;
}

/**
 * The label that tells the model whether it may edit a skill:
 * `[custom, editable]` for custom skills, `[legacy, read-only]` for the shared
 * legacy ones, `[built-in]` otherwise (DeerFlow's labels).
 *
 * @param category - The skill's category.
 */
export function mutabilityLabel(category: SkillCategory): string {
  return category === "custom" ? "[custom, editable]" : category === "legacy" ? "[legacy, read-only]" : "[built-in]";
}
