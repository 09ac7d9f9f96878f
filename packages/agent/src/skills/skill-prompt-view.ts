/**
 * The skills section of the lead's prompt as of now: the catalog is read again
 * for every model call (enabling, disabling or installing a skill applies to
 * the next call of every run, as a per-run build did), and the rendered section
 * is cached by the catalog's content, so an unchanged catalog costs a lookup.
 */
import { renderSkillSection, type RenderedSkillSection } from "@deerflow/skills";
import type { LeadAgentSkills } from "../options.js";

/** Default mount point of the skills tree in the sandbox. */
export const DEFAULT_SKILLS_CONTAINER_BASE = "/mnt/skills";

/** The rendered skills section of a lead agent. */
export class SkillPromptView {
  readonly containerBase: string;
  readonly #skills: LeadAgentSkills;
  #last: RenderedSkillSection | undefined;

  /** @param skills - the lead's skills wiring */
  constructor(skills: LeadAgentSkills) {
    this.#skills = skills;
    this.containerBase = skills.containerBase ?? DEFAULT_SKILLS_CONTAINER_BASE;
  }

  /** Whether the section can ever be deferred (then `describe_skill` is registered and offered per call). */
  get mayDefer(): boolean {
    return (this.#skills.promptMode ?? "auto") !== "full";
  }

  /**
   * The section for the catalog as it is now.
   *
   * @param allow - a whitelist of skill names (a custom agent's `skills`); absent: every skill
   */
  async section(allow?: readonly string[]): Promise<RenderedSkillSection> {
    const skills = this.#skills;
    const listed = await skills.source.list();
    const section = renderSkillSection(allow === undefined ? listed : listed.filter((s) => allow.includes(s.name)), {
      containerBase: this.containerBase,
      mode: skills.promptMode ?? "auto",
      selfEvolution: skills.skillManage !== undefined,
    });
    this.#last = section;
    return section;
  }

  /** The mode of the last rendered section (`undefined` before the first), for code that cannot wait. */
  get lastMode(): RenderedSkillSection["mode"] | undefined {
    return this.#last?.mode;
  }
}
