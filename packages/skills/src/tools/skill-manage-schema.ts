/**
 * The wire contract of the `skill_manage` tool: DeerFlow's parameter names
 * (snake_case, as the model sees them) and the JSON Schema Pydantic produces
 * for its signature, so models see the same tool in both implementations.
 */

/** Input of `skill_manage` exactly as the model sends it. */
export interface SkillManageInput {
  readonly action: string;
  readonly name: string;
  readonly content?: string | null;
  readonly path?: string | null;
  readonly find?: string | null;
  readonly replace?: string | null;
  readonly expected_count?: number | null;
}

/** The tool name. */
export const SKILL_MANAGE_TOOL_NAME = "skill_manage";

/** Description shown to the model (DeerFlow's docstring). */
export const SKILL_MANAGE_DESCRIPTION = [
  "Manage custom skills under skills/custom/.",
  "",
  "Args:",
  "    action: One of create, patch, edit, delete, write_file, remove_file.",
  "    name: Skill name in hyphen-case.",
  "    content: New file content for create, edit, or write_file.",
  "    path: Supporting file path for write_file or remove_file.",
  "    find: Existing text to replace for patch.",
  "    replace: Replacement text for patch.",
  "    expected_count: Optional expected number of replacements for patch.",
].join("\n");

const optional = (type: "string" | "integer", description: string) => ({
  anyOf: [{ type }, { type: "null" }],
  default: null,
  description,
});

/** JSON Schema of the tool input (`action` and `name` required; the rest nullable). */
export const SKILL_MANAGE_SCHEMA = {
  type: "object",
  properties: {
    action: { type: "string", description: "One of create, patch, edit, delete, write_file, remove_file." },
    name: { type: "string", description: "Skill name in hyphen-case." },
    content: optional("string", "New file content for create, edit, or write_file."),
    path: optional("string", "Supporting file path for write_file or remove_file."),
    find: optional("string", "Existing text to replace for patch."),
    replace: optional("string", "Replacement text for patch."),
    expected_count: optional("integer", "Optional expected number of replacements for patch."),
  },
  required: ["action", "name"],
} as const;
