/**
 * The lead's system prompt for one run. DeerFlow renders it once per agent
 * build; here the agent is compiled once, so the parts that differ between
 * runs — the skills as they are now, whether subagents are on for the run and
 * its `max_concurrent_subagents` — are applied per model call, and each
 * distinct prompt is built once and kept.
 */
import { createHash } from "node:crypto";
import { LruCache } from "@deerflow/kernel";
import { renderSubagentSection, type SubagentRegistry } from "@deerflow/subagents";
import { selfUpdateSection, soulSection } from "../custom-agents/custom-agent-prompt.js";
import type { RunOptions } from "../run/run-options.js";
import type { SkillPromptView } from "../skills/skill-prompt-view.js";
import { buildLeadSystemPrompt } from "./lead-prompt.js";

/** Distinct prompts kept (skills signature × subagent settings). */
const CACHED_PROMPTS = 64;

/** What the prompt is built from. */
export interface RunPromptParts {
  readonly agentName: string;
  readonly skills?: SkillPromptView | undefined;
  /** Whether the sandbox (and so the skills mount and bash) is available. */
  readonly sandbox: boolean;
  readonly subagents?:
    | {
        readonly registry: SubagentRegistry;
        readonly maxConcurrent?: number | undefined;
        readonly maxTotal?: number | undefined;
      }
    | undefined;
  readonly extraInstructions?: string | undefined;
}

/** Builds the system prompt of a run. */
export type RunPromptBuilder = (run: RunOptions) => Promise<string>;

/**
 * Creates the builder.
 *
 * @param parts - name, skills view, sandbox, subagents, operator text
 * @returns `(run) => prompt`, memoised by skills signature and subagent settings
 */
export function createRunPromptBuilder(parts: RunPromptParts): RunPromptBuilder {
  const cache = new LruCache<string, string>(CACHED_PROMPTS);
  return async (run) => {
    // A custom agent (or the default SOUL.md) as resolved when the run started.
    const custom = run.customAgent;
    const section = parts.skills === undefined ? undefined : await parts.skills.section(custom?.skills, run.userId);
    const subagents = parts.subagents !== undefined && run.subagentEnabled !== false ? parts.subagents : undefined;
    const maxConcurrent = run.maxConcurrentSubagents ?? subagents?.maxConcurrent;
    const soul = soulSection(custom?.soul);
    const selfUpdate = custom?.name !== undefined && run.isBootstrap !== true ? selfUpdateSection(custom.name) : "";
    const agentKey =
      soul === "" && selfUpdate === ""
        ? "-"
        : createHash("sha256").update(soul).update("\u0000").update(selfUpdate).digest("base64url");
    const key = `${section?.signature ?? "-"}|${subagents === undefined ? "-" : `${maxConcurrent ?? ""}`}|${agentKey}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const prompt = buildLeadSystemPrompt({
      agentName: parts.agentName,
      ...(section === undefined ? {} : { skillsSection: section.text }),
      ...(parts.sandbox && parts.skills !== undefined ? { skillsPath: parts.skills.containerBase } : {}),
      ...(subagents === undefined
        ? {}
        : {
            subagentSection: renderSubagentSection({
              subagents: subagents.registry.list(),
              ...(maxConcurrent === undefined ? {} : { maxConcurrent }),
              ...(subagents.maxTotal === undefined ? {} : { maxTotal: subagents.maxTotal }),
              bashAvailable: parts.sandbox,
            }),
          }),
      ...(parts.extraInstructions === undefined ? {} : { extra: parts.extraInstructions }),
      soul,
      selfUpdate,
    });
    cache.set(key, prompt);
    return prompt;
  };
}
