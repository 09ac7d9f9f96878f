import { DEFAULT_SKILLS_CONTAINER_PATH } from "../limits.js";
import { skillContainerFilePath, type Skill } from "../model/skill.js";
import { escapeXml, mutabilityLabel } from "./escape.js";
import { LruCache } from "@deerflow/kernel";
import { deferredSectionText, fullSectionText, skillEntryText } from "./section-text.js";
import { sectionSignature } from "./signature.js";
import { approximateTokenCount } from "./tokens.js";

/**
 * How skills appear in the prompt:
 * - `full`: every enabled skill with description and location (DeerFlow's legacy layout);
 * - `deferred`: names only in `<skill_index>`; the agent needs the `describe_skill` tool;
 * - `auto`: `full` unless the catalogue is too big for it (see the `auto*` options).
 */
export type SkillPromptMode = "auto" | "full" | "deferred";

/** Options of {@link renderSkillSection}. */
export interface RenderSkillSectionOptions {
  /** Container mount point used in locations (default `/mnt/skills`). */
  readonly containerBase?: string;
  /** Default `full`. With `auto` or `deferred`, register `describe_skill` whenever `result.mode` is `deferred`. */
  readonly mode?: SkillPromptMode;
  /** Only these skill names are shown, enabled or disabled (a custom agent's skill list). */
  readonly allowlist?: Iterable<string>;
  /** Adds the Skill Self-Evolution section pointing at `skill_manage` (default false). */
  readonly selfEvolution?: boolean;
  /** Adds the slash activation paragraph (default true). */
  readonly slashActivation?: boolean;
  /** `auto` switches to deferred above this many enabled skills (default 60). */
  readonly autoMaxSkills?: number;
  /** `auto` switches to deferred when the full section would exceed this many approximate tokens (default 6000). */
  readonly autoMaxTokens?: number;
  /** Where rendered sections are cached (default: a shared 32-entry LRU); `false` disables caching. */
  readonly cache?: LruCache<string, RenderedSkillSection> | false;
}

/** A rendered section and what it cost. */
export interface RenderedSkillSection {
  /** The `<skill_system>` text, or `""` when there is nothing to show. */
  readonly text: string;
  /** The mode actually used (`auto` resolved). */
  readonly mode: "full" | "deferred";
  /** {@link approximateTokenCount} of `text`. */
  readonly tokens: number;
  /** SHA-256 over the skills' name, description, category, relativePath, enabled and the options. */
  readonly signature: string;
}

/** Default thresholds of `auto` mode. */
export const AUTO_MODE_DEFAULTS = Object.freeze({ maxSkills: 60, maxTokens: 6000 });

/** The LRU shared by calls that do not pass their own `cache` (32 sections, like DeerFlow). */
const defaultSectionCache = new LruCache<string, RenderedSkillSection>(32);

/**
 * Renders DeerFlow's `<skill_system>` prompt section.
 *
 * Full mode lists enabled skills in `<available_skills>` (name, description
 * with `[built-in]` / `[custom, editable]`, container SKILL.md location) and
 * disabled ones in `<disabled_skills>` with a warning not to use them.
 * Deferred mode lists enabled names only in `<skill_index>` and tells the
 * model to call `describe_skill`. Names, descriptions and paths are
 * XML-escaped. Skills are shown sorted by name.
 *
 * The text is `""` when an allowlist admits no enabled skill, and otherwise
 * when there is nothing to show: in full mode no enabled or disabled skill and
 * no self-evolution section; in deferred mode no enabled skill.
 *
 * Results are cached by content signature, so re-rendering an unchanged
 * catalogue is a hash (or, for a frozen catalogue list, a lookup).
 *
 * @param skills - Skills with their enabled state (e.g. `await catalog.list()`).
 * @param options - Mode, location base, allowlist, sections.
 * @returns The text, the mode used, its approximate token count and signature.
 * @example
 * ```ts
 * const section = renderSkillSection(await catalog.list(), { mode: "auto", containerBase: "/mnt/skills" });
 * const tools = section.mode === "deferred" ? [createDescribeSkillTool(() => catalog.enabledSkills())] : [];
 * ```
 */
export function renderSkillSection(
  skills: readonly Skill[],
  options: RenderSkillSectionOptions = {},
): RenderedSkillSection {
  const base = options.containerBase ?? DEFAULT_SKILLS_CONTAINER_PATH;
  const mode = options.mode ?? "full";
  // A bare string is iterable too; treat it as one name, not as characters.
  const list = typeof options.allowlist === "string" ? [options.allowlist] : options.allowlist;
  const allow = list === undefined ? undefined : [...new Set(list)].sort();
  const settings = {
    base,
    mode,
    allow,
    selfEvolution: options.selfEvolution === true,
    slashActivation: options.slashActivation !== false,
    maxSkills: options.autoMaxSkills ?? AUTO_MODE_DEFAULTS.maxSkills,
    maxTokens: options.autoMaxTokens ?? AUTO_MODE_DEFAULTS.maxTokens,
  };
  const signature = sectionSignature(skills, JSON.stringify(settings));
  const cache = options.cache === false ? undefined : (options.cache ?? defaultSectionCache);
  const cached = cache?.get(signature);
  if (cached) return cached;

  const allowed = allow === undefined ? undefined : new Set(allow);
  const visible = sortByName(allowed === undefined ? skills : skills.filter((s) => allowed.has(s.name)));
  const enabled = visible.filter((s) => s.enabled);
  const disabled = visible.filter((s) => !s.enabled);
  const location = escapeXml(base);
  const common = { location, slashActivation: settings.slashActivation, selfEvolution: settings.selfEvolution };

  const renderFull = (): string => {
    if (allowed !== undefined && enabled.length === 0) return "";
    if (enabled.length === 0 && disabled.length === 0 && !settings.selfEvolution) return "";
    return fullSectionText({
      ...common,
      entries: enabled.map((s) =>
        skillEntryText(
          escapeXml(s.name),
          `${escapeXml(s.description)} ${mutabilityLabel(s.category)}`,
          escapeXml(skillContainerFilePath(s, base)),
        ),
      ),
      disabled: disabled.map((s) => `    - ${escapeXml(s.name)} (${s.category})`),
    });
  };
  const renderDeferred = (): string =>
    enabled.length === 0 ? "" : deferredSectionText({ ...common, names: enabled.map((s) => escapeXml(s.name)) });

  let result: RenderedSkillSection;
  if (mode === "deferred" || (mode === "auto" && enabled.length > settings.maxSkills)) {
    result = finish(renderDeferred(), "deferred", signature);
  } else {
    const full = finish(renderFull(), "full", signature);
    result =
      mode === "auto" && full.tokens > settings.maxTokens ? finish(renderDeferred(), "deferred", signature) : full;
  }
  cache?.set(signature, result);
  return result;
}

function finish(text: string, mode: "full" | "deferred", signature: string): RenderedSkillSection {
  return Object.freeze({ text, mode, tokens: approximateTokenCount(text), signature });
}

function sortByName(skills: readonly Skill[]): readonly Skill[] {
  for (let i = 1; i < skills.length; i++) {
    if ((skills[i - 1] as Skill).name > (skills[i] as Skill).name) {
      return [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
  }
  return skills;
}
