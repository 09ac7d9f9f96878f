/**
 * DeerFlow's legacy `<skill_system>` layout (skills.deferred_discovery off),
 * rendered here only as the baseline of the token and render benchmarks.
 * Not exported from the package.
 *
 * The per-skill parts are DeerFlow's format exactly: `<skill>` entries
 * indented 4/8 spaces, `<name>`, `<description>desc [label]</description>`,
 * `<location>`, HTML-escaping of `&`, `<`, `>`, the `<disabled_skills>` lines.
 * The fixed paragraphs are paraphrased at about the same length (DeerFlow's
 * wording is not copied into this repository); with thousands of skills they
 * weigh well under 0.1 token per skill.
 */
import { skillContainerFilePath, type Skill } from "../src/model/skill.js";

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Renders the legacy section for `skills` the way DeerFlow builds it: one
 * string concatenation per call, no caching, escaping every field.
 *
 * @param skills - Skills with their enabled state.
 * @param containerBase - Container mount point (default `/mnt/skills`).
 * @returns The section text (`""` when there is nothing to show).
 */
export function renderLegacySection(skills: readonly Skill[], containerBase = "/mnt/skills"): string {
  const enabled = skills.filter((s) => s.enabled);
  const disabled = skills.filter((s) => !s.enabled);
  if (enabled.length === 0 && disabled.length === 0) return "";
  const items = enabled
    .map(
      (s) =>
        `    <skill>\n        <name>${esc(s.name)}</name>\n        <description>${esc(s.description)} ${s.category === "custom" ? "[custom, editable]" : "[built-in]"}</description>\n        <location>${esc(skillContainerFilePath(s, containerBase))}</location>\n    </skill>`,
    )
    .join("\n");
  const list = enabled.length > 0 ? `<available_skills>\n${items}\n</available_skills>` : "";
  const off =
    disabled.length > 0
      ? `\n<disabled_skills>\nThese skills are INSTALLED but DISABLED. You MUST NOT read, reference, or use any of these skills, even when a request seems to match one.\n${disabled.map((s) => `    - ${esc(s.name)} (${s.category})`).join("\n")}\n</disabled_skills>`
      : "";
  return `<skill_system>
Skills give you tuned workflows for particular tasks. Every skill bundles best practices, frameworks and pointers to further resources.

**Progressive Loading Pattern:**
1. As soon as a user request fits a skill's purpose, call \`read_file\` on the skill's main file using the location in its skill tag below
2. Read the skill's workflow and instructions until you understand them
3. The skill file points to further resources kept in the same folder
4. Load those resources only at the moment you need them during the work
5. Follow the skill's instructions exactly

**Explicit Slash Skill Activation:**
- When a request begins with \`/<skill-name>\`, the user has asked for that skill explicitly.
- The runtime has injected the activated skill already; do not call \`read_file\` on that SKILL.md again unless it refers to supporting resources you need.

**Skills are located at:** ${containerBase}

${list}
${off}
</skill_system>`;
}
