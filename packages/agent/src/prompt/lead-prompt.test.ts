import { renderSkillSection, type Skill } from "@deerflow/skills";
import { renderSubagentSection, SubagentRegistry } from "@deerflow/subagents";
import { describe, expect, it } from "vitest";
import { buildLeadSystemPrompt } from "../index.js";

const skill = (name: string, enabled = true): Skill =>
  ({
    name,
    description: `${name} workflow`,
    category: "public",
    relativePath: name,
    enabled,
    skillDir: `/x/${name}`,
    skillFile: `/x/${name}/SKILL.md`,
  }) as Skill;

function sectionOrder(prompt: string, tags: string[]): number[] {
  return tags.map((t) => prompt.indexOf(`<${t}>`));
}

describe("buildLeadSystemPrompt", () => {
  const skills = renderSkillSection([skill("deep-research"), skill("old-skill", false)], {
    containerBase: "/mnt/skills",
    cache: false,
  }).text;
  const subagents = renderSubagentSection({
    subagents: new SubagentRegistry().list(),
    maxConcurrent: 2,
    maxTotal: 5,
    bashAvailable: true,
  });
  const prompt = buildLeadSystemPrompt({
    agentName: "Deer <Bot>",
    skillsSection: skills,
    skillsPath: "/mnt/skills",
    subagentSection: subagents,
  });

  it("has every section, in DeerFlow's order", () => {
    const tags = [
      "role",
      "thinking_style",
      "clarification_system",
      "skill_system",
      "subagent_system",
      "working_directory",
      "response_style",
      "critical_reminders",
    ];
    const positions = sectionOrder(prompt, tags);
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const t of tags) expect(prompt).toContain(`</${t}>`);
  });

  it("names the agent, escaped", () => {
    expect(prompt).toContain("You are Deer &lt;Bot&gt;, an open-source super agent.");
  });

  it("explains the five clarification types and the ask_clarification tool", () => {
    for (const t of ["missing_info", "ambiguous_requirement", "approach_choice", "risk_confirmation", "suggestion"])
      expect(prompt).toContain(t);
    expect(prompt).toContain("`ask_clarification`");
  });

  it("carries the skills index with locations and disabled skills", () => {
    expect(prompt).toContain("<location>/mnt/skills/public/deep-research/SKILL.md</location>");
    expect(prompt).toContain("<disabled_skills>");
    expect(prompt).toContain("- Skill first:");
  });

  it("carries the subagent limits", () => {
    expect(prompt).toContain("MAXIMUM 2 task CALLS PER RESPONSE");
    expect(prompt).toContain("MAXIMUM 5 task CALLS PER RUN");
  });

  it("states the working-directory rules", () => {
    const wd = prompt.slice(prompt.indexOf("<working_directory>"), prompt.indexOf("</working_directory>"));
    expect(wd).toContain("/mnt/user-data/uploads");
    expect(wd).toContain("/mnt/user-data/workspace: your working directory");
    expect(wd).toContain("/mnt/user-data/outputs: final deliverables");
    expect(wd).toContain("`present_files`");
    expect(wd).toContain("/mnt/skills: skills, read-only");
  });

  it("leaves out skills and subagents when they are off", () => {
    const bare = buildLeadSystemPrompt({ agentName: "DeerFlow" });
    expect(bare).not.toContain("<skill_system>");
    expect(bare).not.toContain("<subagent_system>");
    expect(bare).not.toContain("/mnt/skills");
    expect(bare).not.toContain("Skill first");
    expect(bare).not.toContain("subagent");
  });

  it("appends operator instructions last", () => {
    const p = buildLeadSystemPrompt({ agentName: "DeerFlow", extra: "Always answer in French." });
    expect(p.endsWith("Always answer in French.")).toBe(true);
  });
});
