import { describe, expect, it } from "vitest";
import { fitArgs } from "./bound-tools.js";
import { isAmbiguous, readIntents } from "./intents.js";
import { keywords, matchSkill, parsePromptSkills } from "./skill-match.js";

describe("isAmbiguous", () => {
  it("flags bare question marks and two-word questions", () => {
    for (const t of ["?", "??", " ? ", "why?", "Deploy it?", "？"]) expect(isAmbiguous(t)).toBe(true);
    for (const t of ["", "What is in my workspace?", "list files", "hello"]) expect(isAmbiguous(t)).toBe(false);
  });
});

describe("readIntents", () => {
  it("reads list, run, write, read and delegate intents", () => {
    expect(readIntents("list /mnt/user-data/uploads")).toMatchObject({ list: "/mnt/user-data/uploads" });
    expect(readIntents("show me the files")).toMatchObject({ list: "/mnt/user-data/workspace" });
    expect(readIntents("execute `python3 x.py`")).toMatchObject({ run: "python3 x.py" });
    expect(readIntents("save a report")).toMatchObject({ write: "demo-report.md" });
    expect(readIntents("create data.csv")).toMatchObject({ write: "data.csv" });
    expect(readIntents("read /mnt/user-data/uploads/a.txt")).toMatchObject({ read: "/mnt/user-data/uploads/a.txt" });
    expect(readIntents("delegate the summary to a subagent").delegate).toEqual(["summary"]);
    expect(readIntents("research cats, dogs and birds in parallel").delegate).toEqual(["cats", "dogs", "birds"]);
    expect(readIntents("hello")).toEqual({ ambiguous: false });
  });
});

describe("matchSkill", () => {
  const prompt = `<available_skills>
    <skill>
        <name>code-review</name>
        <description>Reviews code changes for bugs &amp; security. [built-in]</description>
        <location>/mnt/skills/public/code-review/SKILL.md</location>
    </skill>
    <skill>
        <name>report-generation</name>
        <description>Turns notes into a structured report. [built-in]</description>
        <location>/mnt/skills/public/report-generation/SKILL.md</location>
    </skill>
</available_skills>`;

  it("parses entries and unescapes them", () => {
    expect(parsePromptSkills(prompt)[0]).toEqual({
      name: "code-review",
      description: "Reviews code changes for bugs & security. [built-in]",
      location: "/mnt/skills/public/code-review/SKILL.md",
    });
    expect(parsePromptSkills("no skills here")).toEqual([]);
  });

  it("matches on name parts, not on incidental description words", () => {
    const skills = parsePromptSkills(prompt);
    expect(matchSkill("please review my code", skills)?.name).toBe("code-review");
    expect(matchSkill("Generate a report from these notes", skills)?.name).toBe("report-generation");
    expect(matchSkill("what about security?", skills)).toBeUndefined();
  });

  it("drops short and common words", () => {
    expect(keywords("Please write the report with data")).toEqual(["report", "data"]);
  });
});

describe("fitArgs", () => {
  const tool = {
    name: "t",
    parameters: { properties: { a: {}, kind: { enum: ["x", "y"] } }, required: ["a"] },
  };

  it("drops unknown keys, fixes enums and refuses missing required keys", () => {
    expect(fitArgs(tool, { a: 1, extra: 2, kind: "z" }, { kind: "y" })).toEqual({ a: 1, kind: "y" });
    expect(fitArgs(tool, { a: 1, kind: "z" })).toEqual({ a: 1, kind: "x" });
    expect(fitArgs(tool, { kind: "x" })).toBeUndefined();
  });
});
