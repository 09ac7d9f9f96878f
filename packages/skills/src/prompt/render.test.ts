import { describe, expect, it } from "vitest";
import { LruCache } from "@deerflow/kernel";
import { renderSkillSection, type RenderedSkillSection } from "./render.js";
import { makeSkill, manySkills } from "../../test/support/prompt/fixtures.js";
import { approximateTokenCount } from "./tokens.js";

const fresh = () => ({ cache: new LruCache<string, RenderedSkillSection>(32) });

describe("renderSkillSection", () => {
  it("renders one entry per enabled skill, indented 4/8 spaces, with its label and container location", () => {
    const { text, mode } = renderSkillSection(
      [
        makeSkill("vercel-deploy", { relativePath: "vercel-deploy-claimable", description: "Deploy to Vercel." }),
        makeSkill("my-notes", { category: "custom" }),
      ],
      fresh(),
    );
    expect(mode).toBe("full");
    expect(text.startsWith("<skill_system>\n")).toBe(true);
    expect(text.endsWith("\n</skill_system>")).toBe(true);
    expect(text).toContain(
      [
        "<available_skills>",
        "    <skill>",
        "        <name>my-notes</name>",
        "        <description>Description of my-notes. [custom, editable]</description>",
        "        <location>/mnt/skills/custom/my-notes/SKILL.md</location>",
        "    </skill>",
        "    <skill>",
        "        <name>vercel-deploy</name>",
        "        <description>Deploy to Vercel. [built-in]</description>",
        "        <location>/mnt/skills/public/vercel-deploy-claimable/SKILL.md</location>",
        "    </skill>",
        "</available_skills>",
      ].join("\n"),
    );
  });

  it("prints the location line with the container base", () => {
    expect(renderSkillSection([makeSkill("a")], { ...fresh(), containerBase: "/opt/skills/" }).text).toContain(
      "**Skills are located at:** /opt/skills/\n",
    );
    expect(renderSkillSection([makeSkill("a")], { ...fresh(), containerBase: "/opt/skills/" }).text).toContain(
      "<location>/opt/skills/public/a/SKILL.md</location>",
    );
  });

  it("tells the model to read_file a matching skill progressively", () => {
    const { text } = renderSkillSection([makeSkill("a")], fresh());
    expect(text).toContain("**Progressive Loading Pattern:**");
    expect(text).toMatch(/1\. .*`read_file`/);
    expect(text).toContain("**Explicit Slash Skill Activation:**");
  });

  it("omits the slash paragraph when asked", () => {
    expect(renderSkillSection([makeSkill("a")], { ...fresh(), slashActivation: false }).text).not.toContain("Slash");
  });

  it("escapes &, < and > in names, descriptions and locations but leaves quotes", () => {
    const { text } = renderSkillSection(
      [makeSkill("x</name><evil>", { description: `Fish & "chips" <b>`, relativePath: "a&b" })],
      fresh(),
    );
    expect(text).toContain("<name>x&lt;/name&gt;&lt;evil&gt;</name>");
    expect(text).toContain(`<description>Fish &amp; "chips" &lt;b&gt; [built-in]</description>`);
    expect(text).toContain("<location>/mnt/skills/public/a&amp;b/SKILL.md</location>");
    expect(text).not.toContain("<evil>");
  });

  it("lists disabled skills with their category and a warning", () => {
    const { text } = renderSkillSection(
      [
        makeSkill("on"),
        makeSkill("off", { enabled: false }),
        makeSkill("mine", { category: "custom", enabled: false }),
      ],
      fresh(),
    );
    expect(text).toContain(
      "<disabled_skills>\nThe skills below are INSTALLED but DISABLED. You MUST NOT read, reference, or use any of them",
    );
    expect(text).toContain("    - mine (custom)\n    - off (public)\n</disabled_skills>");
    expect(text).not.toContain("<name>off</name>");
  });

  it("renders only the disabled block when nothing is enabled", () => {
    const { text } = renderSkillSection([makeSkill("off", { enabled: false })], fresh());
    expect(text).toContain("<disabled_skills>");
    expect(text).not.toContain("<available_skills>");
  });

  it("returns an empty section when there is nothing to show", () => {
    expect(renderSkillSection([], fresh())).toMatchObject({ text: "", tokens: 0, mode: "full" });
  });

  it("renders the self-evolution section even without skills", () => {
    const { text } = renderSkillSection([], { ...fresh(), selfEvolution: true });
    expect(text).toContain("## Skill Self-Evolution");
    expect(text).toContain("`skill_manage`");
    expect(text).toContain("/mnt/user-data/workspace");
  });

  it("leaves the self-evolution section out by default", () => {
    expect(renderSkillSection([makeSkill("a")], fresh()).text).not.toContain("skill_manage");
  });

  it("filters both lists by the allowlist", () => {
    const skills = [
      makeSkill("a"),
      makeSkill("b"),
      makeSkill("c", { enabled: false }),
      makeSkill("d", { enabled: false }),
    ];
    const { text } = renderSkillSection(skills, { ...fresh(), allowlist: ["a", "c"] });
    expect(text).toContain("<name>a</name>");
    expect(text).not.toContain("<name>b</name>");
    expect(text).toContain("    - c (public)");
    expect(text).not.toContain("    - d (public)");
  });

  it("treats a string allowlist as one name", () => {
    const { text } = renderSkillSection([makeSkill("ab"), makeSkill("a"), makeSkill("b")], {
      ...fresh(),
      allowlist: "ab",
    });
    expect(text).toContain("<name>ab</name>");
    expect(text).not.toContain("<name>a</name>");
  });

  it("returns an empty section when the allowlist admits no enabled skill", () => {
    const skills = [makeSkill("a"), makeSkill("c", { enabled: false })];
    expect(renderSkillSection(skills, { ...fresh(), allowlist: ["c"], selfEvolution: true }).text).toBe("");
    expect(renderSkillSection(skills, { ...fresh(), allowlist: [] }).text).toBe("");
  });

  it("sorts skills by name whatever the input order", () => {
    const { text } = renderSkillSection([makeSkill("zeta"), makeSkill("alpha")], fresh());
    expect(text.indexOf("<name>alpha</name>")).toBeLessThan(text.indexOf("<name>zeta</name>"));
  });

  it("renders names only in deferred mode, sorted, escaped and comma-joined", () => {
    const skills = [makeSkill("zeta"), makeSkill("a&b"), makeSkill("off", { enabled: false }), makeSkill("mid")];
    const { text, mode } = renderSkillSection(skills, { ...fresh(), mode: "deferred" });
    expect(mode).toBe("deferred");
    expect(text).toContain("<skill_index>\na&amp;b, mid, zeta\n</skill_index>");
    expect(text).toContain("**Skill Discovery:**");
    expect(text).toContain("`describe_skill`");
    expect(text).toContain("\nSkills are located at: /mnt/skills\n</skill_system>");
    expect(text).not.toContain("<description>");
    expect(text).not.toContain("off");
  });

  it("returns an empty deferred section without enabled skills", () => {
    expect(
      renderSkillSection([makeSkill("off", { enabled: false })], { ...fresh(), mode: "deferred", selfEvolution: true })
        .text,
    ).toBe("");
  });

  it("stays full in auto mode for a small catalogue", () => {
    expect(renderSkillSection(manySkills(10), { ...fresh(), mode: "auto" }).mode).toBe("full");
  });

  it("switches auto mode to deferred above the skill count", () => {
    expect(renderSkillSection(manySkills(61), { ...fresh(), mode: "auto" }).mode).toBe("deferred");
    expect(renderSkillSection(manySkills(60), { ...fresh(), mode: "auto", autoMaxTokens: 1e9 }).mode).toBe("full");
    expect(renderSkillSection(manySkills(5), { ...fresh(), mode: "auto", autoMaxSkills: 4 }).mode).toBe("deferred");
  });

  it("switches auto mode to deferred above the token budget", () => {
    const long = manySkills(40, "word ".repeat(200).trim());
    const full = renderSkillSection(long, { ...fresh(), mode: "full" });
    expect(full.tokens).toBeGreaterThan(6000);
    expect(renderSkillSection(long, { ...fresh(), mode: "auto" }).mode).toBe("deferred");
    expect(renderSkillSection(long, { ...fresh(), mode: "auto", autoMaxTokens: full.tokens }).mode).toBe("full");
  });

  it("reports the approximate token count of its text", () => {
    const r = renderSkillSection(manySkills(3), fresh());
    expect(r.tokens).toBe(approximateTokenCount(r.text));
  });

  it("returns the cached result for the same content and options", () => {
    const opts = fresh();
    const first = renderSkillSection(manySkills(3), opts);
    expect(renderSkillSection(manySkills(3), opts)).toBe(first);
  });

  it("changes the signature when any rendered field changes", () => {
    const base = renderSkillSection([makeSkill("a")], fresh()).signature;
    const variants = [
      [makeSkill("a", { description: "other" })],
      [makeSkill("a", { enabled: false })],
      [makeSkill("a", { category: "custom" })],
      [makeSkill("a", { relativePath: "ns/a" })],
      [makeSkill("b")],
    ];
    for (const v of variants) expect(renderSkillSection(v, fresh()).signature).not.toBe(base);
    expect(renderSkillSection([makeSkill("a")], { ...fresh(), containerBase: "/x" }).signature).not.toBe(base);
    expect(renderSkillSection([makeSkill("a")], { ...fresh(), selfEvolution: true }).signature).not.toBe(base);
    expect(renderSkillSection([makeSkill("a")], { ...fresh(), allowlist: ["a"] }).signature).not.toBe(base);
  });

  it("ignores the allowlist order in the signature", () => {
    const a = renderSkillSection([makeSkill("a"), makeSkill("b")], { ...fresh(), allowlist: ["a", "b"] });
    const b = renderSkillSection([makeSkill("a"), makeSkill("b")], { ...fresh(), allowlist: ["b", "a", "a"] });
    expect(a.signature).toBe(b.signature);
  });

  it("does not serve a stale section after a frozen list is replaced", () => {
    const opts = fresh();
    const v1 = Object.freeze([Object.freeze(makeSkill("a"))]);
    const v2 = Object.freeze([Object.freeze(makeSkill("a", { description: "changed" }))]);
    renderSkillSection(v1, opts);
    expect(renderSkillSection(v2, opts).text).toContain("changed");
  });

  it("separates blocks by exactly one blank line in every combination", () => {
    const skills = [makeSkill("a"), makeSkill("b", { enabled: false })];
    for (const mode of ["full", "deferred"] as const) {
      for (const selfEvolution of [false, true]) {
        for (const slashActivation of [false, true]) {
          const { text } = renderSkillSection(skills, { mode, selfEvolution, slashActivation, cache: false });
          expect(text).not.toMatch(/\n\n\n/);
          expect(text).not.toMatch(/^\s|\s$/);
        }
      }
    }
  });

  it("renders without a cache when cache is false", () => {
    const a = renderSkillSection([makeSkill("a")], { cache: false });
    const b = renderSkillSection([makeSkill("a")], { cache: false });
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
  });
});
