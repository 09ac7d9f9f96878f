import { describe, expect, it } from "vitest";
import { searchSkills } from "./search-skills.js";
import { makeSkill, manySkills } from "../../test/support/prompt/fixtures.js";

const catalog = [
  makeSkill("chart-visualization", { description: "Pick among 26 chart types and render a chart image." }),
  makeSkill("data-analysis", { description: "Analyse Excel or CSV uploads with pivots and charts." }),
  makeSkill("deep-research", { description: "Systematic multi-angle web research." }),
  makeSkill("podcast-generation", { description: "Turn text into a two-host podcast audio." }),
  makeSkill("podcast-summary", {
    description: "Summarise a podcast episode; generate show notes and generate chapters.",
  }),
  makeSkill("ppt-generation", { description: "Build slides from generated images." }),
];
const names = (q: string) => searchSkills(catalog, q).map((s) => s.name);

describe("searchSkills", () => {
  it("returns exact names for select:, in catalogue order", () => {
    expect(names("select:ppt-generation, deep-research,missing")).toEqual(["deep-research", "ppt-generation"]);
  });

  it("does not cap select: results", () => {
    const many = manySkills(12);
    expect(searchSkills(many, `select:${many.map((s) => s.name).join(",")}`)).toHaveLength(12);
  });

  it("matches select: names exactly, not by substring or case", () => {
    expect(names("select:deep, DEEP-RESEARCH")).toEqual([]);
  });

  it("requires the +term in the name and ranks by hits of the rest", () => {
    expect(names("+podcast generate")).toEqual(["podcast-summary", "podcast-generation"]);
  });

  it("matches the +term case-insensitively and keeps unranked candidates", () => {
    expect(names("+PODCAST zzz")).toEqual(["podcast-generation", "podcast-summary"]);
  });

  it("lists +term candidates without a rest", () => {
    expect(names("+gen")).toEqual(["podcast-generation", "ppt-generation"]);
  });

  it("returns nothing for a bare +", () => {
    expect(names("+")).toEqual([]);
    expect(names("+   ")).toEqual([]);
  });

  it("scores a name match above a description-only match", () => {
    expect(names("chart")).toEqual(["chart-visualization", "data-analysis"]);
  });

  it("keeps catalogue order among equal scores", () => {
    expect(names("generat")).toEqual(["podcast-generation", "ppt-generation", "podcast-summary"]);
  });

  it("searches with a case-insensitive regex", () => {
    expect(names("^DEEP|csv")).toEqual(["deep-research", "data-analysis"]);
  });

  it("matches across name and description", () => {
    expect(names("research systematic")).toEqual(["deep-research"]);
  });

  it("falls back to a literal match for an invalid regex", () => {
    const skills = [makeSkill("cpp", { description: "Modern C++ (17) idioms." })];
    expect(searchSkills(skills, "C++ (17").map((s) => s.name)).toEqual(["cpp"]);
  });

  it("returns nothing for an empty or whitespace query", () => {
    expect(names("")).toEqual([]);
    expect(names("   \n")).toEqual([]);
  });

  it("caps search results at 5", () => {
    expect(searchSkills(manySkills(20), "skill")).toHaveLength(5);
    expect(searchSkills(manySkills(20), "+skill")).toHaveLength(5);
    expect(searchSkills(manySkills(20), "+skill thing")).toHaveLength(5);
  });

  it("finishes on a catastrophic pattern", () => {
    const skills = [makeSkill("a", { description: `${"a".repeat(1000)}!` })];
    expect(searchSkills(skills, "(a+)+$")).toEqual([]);
  });

  it("does not loop on a pattern that matches the empty string", () => {
    expect(names("+podcast x*")).toHaveLength(2);
  });
});
