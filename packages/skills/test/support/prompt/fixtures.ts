/** Skill factories for the prompt tests. Test-only; not exported. */
import type { Skill } from "../../../src/model/skill.js";

/** A skill with sensible defaults; `relativePath` defaults to the name. */
export function makeSkill(name: string, overrides: Partial<Skill> = {}): Skill {
  const category = overrides.category ?? "public";
  const relativePath = overrides.relativePath ?? name;
  return {
    name,
    description: `Description of ${name}.`,
    metadata: {},
    requiredSecrets: [],
    secretsAutonomous: true,
    skillDir: `/host/skills/${category}/${relativePath}`,
    skillFile: `/host/skills/${category}/${relativePath}/SKILL.md`,
    relativePath,
    category,
    enabled: true,
    ...overrides,
  };
}

/** `count` enabled public skills named `skill-0000`... */
export function manySkills(
  count: number,
  description = "A skill that does one specific thing well for the user.",
): Skill[] {
  return Array.from({ length: count }, (_, i) => makeSkill(`skill-${String(i).padStart(4, "0")}`, { description }));
}
