import { describe, expect, it } from "vitest";
import { createDescribeSkillTool, describeSkills } from "./describe-skill.js";
import { makeSkill } from "../../test/support/prompt/fixtures.js";

const skills = [
  makeSkill("skill-reviewer", {
    description: "Review skill packages.",
    allowedTools: ["review_skill_package", "read_file"],
  }),
  makeSkill("vercel-deploy", { relativePath: "vercel-deploy-claimable", description: "Deploy to Vercel." }),
  makeSkill("my-notes", { category: "custom", description: "Notes <b> & more" }),
  makeSkill("hidden", { enabled: false, description: "Disabled skill." }),
];

describe("describeSkills", () => {
  it("renders one block per match separated by blank lines", () => {
    expect(describeSkills(skills, "select:skill-reviewer,vercel-deploy")).toBe(
      [
        "## Skill: skill-reviewer",
        "- Description: Review skill packages. [built-in]",
        "- Allowed tools: review_skill_package, read_file",
        "- Location: /mnt/skills/public/skill-reviewer/SKILL.md",
        "",
        "## Skill: vercel-deploy",
        "- Description: Deploy to Vercel. [built-in]",
        "- Allowed tools: (all)",
        "- Location: /mnt/skills/public/vercel-deploy-claimable/SKILL.md",
      ].join("\n"),
    );
  });

  it("labels custom skills editable and escapes fields", () => {
    expect(describeSkills(skills, "select:my-notes", { containerBase: "/skills" })).toBe(
      "## Skill: my-notes\n- Description: Notes &lt;b&gt; &amp; more [custom, editable]\n- Allowed tools: (all)\n- Location: /skills/custom/my-notes/SKILL.md",
    );
  });

  it("shows (all) for an explicit empty allowed-tools list", () => {
    expect(describeSkills([makeSkill("x", { allowedTools: [] })], "select:x")).toContain("- Allowed tools: (all)");
  });

  it("never describes a disabled skill", () => {
    expect(describeSkills(skills, "select:hidden")).toBe("No skills matched: select:hidden");
  });

  it("says when nothing matched", () => {
    expect(describeSkills(skills, "nothing-like-this")).toBe("No skills matched: nothing-like-this");
  });
});

describe("createDescribeSkillTool", () => {
  it("is named describe_skill with a single name parameter", () => {
    const t = createDescribeSkillTool(skills);
    expect(t.name).toBe("describe_skill");
    expect(t.schema).toMatchObject({ type: "object", properties: { name: { type: "string" } }, required: ["name"] });
    expect(Object.keys((t.schema as { properties: object }).properties)).toEqual(["name"]);
  });

  it("answers a query from a fixed list", async () => {
    const out = await createDescribeSkillTool(skills).invoke({ name: "vercel" });
    expect(out).toContain("## Skill: vercel-deploy");
  });

  it("reads skills from a function on every call", async () => {
    let current = [makeSkill("first")];
    const t = createDescribeSkillTool(() => current);
    expect(await t.invoke({ name: "first" })).toContain("## Skill: first");
    current = [makeSkill("second")];
    expect(await t.invoke({ name: "first" })).toBe("No skills matched: first");
  });

  it("hands the function the call's config, so a host can narrow the skills per run", async () => {
    const t = createDescribeSkillTool((config) => {
      const allowed = config?.configurable?.["allowed"] as string[] | undefined;
      return allowed === undefined ? skills : skills.filter((s) => allowed.includes(s.name));
    });
    expect(await t.invoke({ name: "select:my-notes" })).toContain("## Skill: my-notes");
    expect(await t.invoke({ name: "select:my-notes" }, { configurable: { allowed: ["skill-reviewer"] } })).toBe(
      "No skills matched: select:my-notes",
    );
  });

  it("reads skills from a SkillSource and uses the container base", async () => {
    const t = createDescribeSkillTool({ list: async () => skills }, { containerBase: "/opt/s" });
    expect(await t.invoke({ name: "select:skill-reviewer" })).toContain(
      "- Location: /opt/s/public/skill-reviewer/SKILL.md",
    );
  });

  it("returns a ToolMessage with the text when called with a tool call", async () => {
    const msg = await createDescribeSkillTool(skills).invoke({
      type: "tool_call",
      id: "call_1",
      name: "describe_skill",
      args: { name: "select:my-notes" },
    });
    expect(msg).toMatchObject({ tool_call_id: "call_1", name: "describe_skill" });
    expect(String((msg as { content: unknown }).content)).toContain("## Skill: my-notes");
  });

  it("rejects input without a name", async () => {
    await expect(createDescribeSkillTool(skills).invoke({} as never)).rejects.toThrow();
  });
});
