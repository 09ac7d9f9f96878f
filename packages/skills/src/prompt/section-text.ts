/**
 * The fixed wording of the `<skill_system>` prompt section. The structure
 * (tags, order, indentation, labels) follows DeerFlow so agents and tests
 * written against it keep working; the prose is our own.
 */

const INTRO =
  "You have skills: packaged workflows with instructions, scripts and references for particular kinds of task. " +
  "Use one when the request matches what it is for.";

const PROGRESSIVE_LOADING = `**Progressive Loading Pattern:**
1. Compare the request with the skill descriptions below. When one fits, call \`read_file\` on its location before doing anything else.
2. Read the whole SKILL.md and understand its workflow.
3. The skill may refer to scripts, references or templates in its own folder; paths in it are relative to that folder.
4. Load those extra files only when a step needs them, not up front.
5. Follow the skill's instructions exactly.`;

const SKILL_DISCOVERY = `**Skill Discovery:**
1. Look in <skill_index> for a skill whose name fits the task.
2. Call \`describe_skill\` with that name to get its description, allowed tools and location.
3. If it fits, call \`read_file\` on the returned location to load the full instructions.
4. Follow the skill's instructions exactly.`;

const SLASH_ACTIVATION = `**Explicit Slash Skill Activation:**
- A request that starts with \`/<skill-name>\` asks for that skill explicitly.
- The runtime has already injected that skill's content, so do not \`read_file\` its SKILL.md again; load only the supporting files it points to.`;

const SELF_EVOLUTION = `## Skill Self-Evolution
When a task is done, consider capturing what you learned as a skill if:
- it took 5 or more tool calls,
- you had to work around errors that were not obvious,
- the user corrected your approach and the corrected one worked, or
- it is a workflow that will come back and is not trivial.
ALL skill changes go through the \`skill_manage\` tool, never through file-writing tools:
- \`skill_manage(action="create", name, content)\` for a new skill (full SKILL.md)
- \`skill_manage(action="patch", name, find, replace)\` for a targeted fix
- \`skill_manage(action="edit", name, content)\` to rewrite a SKILL.md
- \`skill_manage(action="write_file", name, path, content)\` for a file under assets/, references/, scripts/ or templates/
- \`skill_manage(action="delete", name)\` to remove a custom skill
Never write a SKILL.md into /mnt/user-data/workspace or /mnt/user-data/outputs. If a skill you used fell short, patch it right away; prefer patch over edit. Ask the user before creating a new skill, and skip simple one-off tasks.`;

const DISABLED_WARNING =
  "The skills below are INSTALLED but DISABLED. You MUST NOT read, reference, or use any of them, " +
  "and must not suggest them to the user. If a request needs one, say that it is disabled and can be enabled in the skill settings.";

/** Parts of the full (legacy-layout) section; blocks are already escaped. */
export interface FullSectionParts {
  readonly location: string;
  readonly slashActivation: boolean;
  readonly selfEvolution: boolean;
  /** Pre-rendered `<skill>` entries, or empty. */
  readonly entries: readonly string[];
  /** Pre-rendered `    - name (category)` lines, or empty. */
  readonly disabled: readonly string[];
}

/** Parts of the deferred section. */
export interface DeferredSectionParts {
  readonly location: string;
  readonly slashActivation: boolean;
  readonly selfEvolution: boolean;
  /** Escaped names, already sorted. */
  readonly names: readonly string[];
}

/**
 * Assembles the full section: every enabled skill with its description and
 * location, then the disabled ones with a warning.
 *
 * @param parts - Escaped building blocks.
 * @returns The `<skill_system>` text.
 */
export function fullSectionText(parts: FullSectionParts): string {
  const blocks = [INTRO, PROGRESSIVE_LOADING];
  if (parts.slashActivation) blocks.push(SLASH_ACTIVATION);
  blocks.push(`**Skills are located at:** ${parts.location}`);
  if (parts.selfEvolution) blocks.push(SELF_EVOLUTION);
  if (parts.entries.length > 0) blocks.push(`<available_skills>\n${parts.entries.join("\n")}\n</available_skills>`);
  if (parts.disabled.length > 0)
    blocks.push(`<disabled_skills>\n${DISABLED_WARNING}\n${parts.disabled.join("\n")}\n</disabled_skills>`);
  return wrap(blocks);
}

/**
 * One `<skill>` entry, indented 4/8 spaces.
 *
 * @param name - Escaped name.
 * @param description - Escaped description including the mutability label.
 * @param location - Escaped container path of SKILL.md.
 */
export function skillEntryText(name: string, description: string, location: string): string {
  return `    <skill>\n        <name>${name}</name>\n        <description>${description}</description>\n        <location>${location}</location>\n    </skill>`;
}

/**
 * Assembles the deferred section: names only, to be expanded on demand with
 * `describe_skill`.
 *
 * @param parts - Escaped building blocks.
 * @returns The `<skill_system>` text.
 */
export function deferredSectionText(parts: DeferredSectionParts): string {
  const blocks = [INTRO, SKILL_DISCOVERY];
  if (parts.slashActivation) blocks.push(SLASH_ACTIVATION);
  if (parts.selfEvolution) blocks.push(SELF_EVOLUTION);
  blocks.push(`<skill_index>\n${parts.names.join(", ")}\n</skill_index>`, `Skills are located at: ${parts.location}`);
  return wrap(blocks);
}

/** Blocks are separated by one blank line. */
function wrap(blocks: readonly string[]): string {
  return `<skill_system>\n${blocks.join("\n\n")}\n</skill_system>`;
}
