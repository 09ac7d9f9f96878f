/**
 * The skills section of the lead's prompt as of now: the catalog is read again
 * for every model call (enabling, disabling or installing a skill applies to
 * the next call of every run, as a per-run build did), and the rendered section
 * is cached by the catalog's content, so an unchanged catalog costs a lookup.
 */
import {
  renderSkillSection,
  type CustomSkillStore,
  type RenderedSkillSection,
  type SkillSource,
} from "@deerflow/skills";
import { AgentError } from "../errors.js";
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
   * The skills a run sees: its user's with per-user skills, else the shared source.
   *
   * @param userId - the run's `configurable.user_id`, if any
   */
  sourceFor(userId: string | undefined): SkillSource {
    const forUser = this.#skills.forUser;
    return forUser === undefined || userId === undefined ? this.#skills.source : forUser(userId).source;
  }

  /**
   * The `skill_manage` store of a run's user (the shared one without per-user skills or a user).
   *
   * @throws AgentError `CONFIG_INVALID` when the user has no store although `skill_manage` is registered.
   */
  storeFor(userId: string | undefined): CustomSkillStore {
    const forUser = this.#skills.forUser;
    const store =
      forUser === undefined || userId === undefined ? this.#skills.skillManage : forUser(userId).skillManage;
    if (store === undefined) throw new AgentError("CONFIG_INVALID", "No custom skill store for this run's user");
    return store;
  }

  /**
   * The section for the catalog as it is now.
   *
   * @param allow - a whitelist of skill names (a custom agent's `skills`); absent: every skill
   * @param userId - the run's user (per-user skills)
   */
  async section(allow?: readonly string[], userId?: string): Promise<RenderedSkillSection> {
    const skills = this.#skills;
    const listed = await this.sourceFor(userId).list();
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
