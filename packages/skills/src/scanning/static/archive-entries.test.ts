import { describe, expect, it } from "vitest";
import { scanArchiveEntries, type ArchiveEntryInfo } from "./archive-entries.js";

const file = (name: string, uncompressedSize = 10, isSymlink = false): ArchiveEntryInfo => ({
  name,
  uncompressedSize,
  isSymlink,
});
const ids = (entries: ArchiveEntryInfo[]): string[] => scanArchiveEntries(entries).map((f) => f.ruleId);

describe("scanArchiveEntries", () => {
  it("accepts a normal archive", () => {
    expect(ids([file("my-skill/"), file("my-skill/SKILL.md"), file("my-skill/scripts/run.py")])).toEqual([]);
  });

  it("flags traversal, absolute and ADS names as CRITICAL", () => {
    const findings = scanArchiveEntries([
      file("../evil.sh"),
      file("/etc/passwd"),
      file("C:\\win.ini"),
      file("a/run.sh:hidden"),
    ]);
    expect(findings.map((f) => [f.ruleId, f.severity, f.evidence])).toEqual([
      ["package-path-traversal", "CRITICAL", "../evil.sh"],
      ["package-absolute-path", "CRITICAL", "/etc/passwd"],
      ["package-absolute-path", "CRITICAL", "C:\\win.ini"],
      ["package-ads-stream-name", "CRITICAL", "a/run.sh:hidden"],
    ]);
  });

  it("flags backslash traversal", () => {
    expect(ids([file("skill\\..\\..\\x")])).toEqual(["package-path-traversal"]);
  });

  it("does not treat an empty name or a dotted file name as unsafe", () => {
    expect(ids([file(""), file("a/..hidden"), file("a/b..c")])).toEqual([]);
  });

  it("flags symlink entries as HIGH", () => {
    expect(scanArchiveEntries([file("s/link", 0, true)])).toMatchObject([
      { ruleId: "package-symlink", severity: "HIGH" },
    ]);
  });

  it("aborts with a single finding above 4096 members and accepts exactly 4096", () => {
    const many = Array.from({ length: 4097 }, (_, i) => file(`s/f${i}.txt`, 1));
    expect(scanArchiveEntries(many)).toMatchObject([
      { ruleId: "package-too-many-members", file: null, evidence: "4097 members" },
    ]);
    expect(ids(many.slice(0, 4096))).toEqual([]);
  });

  it("flags an oversized total and an oversized member", () => {
    const findings = scanArchiveEntries([
      file("s/a.bin", 65 * 1024 * 1024),
      ...Array.from({ length: 9 }, (_, i) => file(`s/b${i}.bin`, 50 * 1024 * 1024)),
    ]);
    expect(findings.map((f) => [f.ruleId, f.file])).toEqual([
      ["package-oversized-total", null],
      ["package-oversized-file", "s/a.bin"],
    ]);
  });

  it("flags SKILL.md two or more directories deep, but not the root one or eval fixtures", () => {
    expect(ids([file("SKILL.md"), file("root/SKILL.md")])).toEqual([]);
    expect(ids([file("root/sub/SKILL.md")])).toEqual(["package-nested-skill-md"]);
    expect(ids([file("root/evals/fixtures/case1/SKILL.md"), file("evals/fixtures/case2/SKILL.md")])).toEqual([]);
  });

  it("flags hidden sensitive files and .git contents", () => {
    expect(
      ids([file("s/.env"), file("s/.aws/prod/credentials"), file("s/.git/config"), file("s/.env.example")]).sort(),
    ).toEqual([
      "package-git-directory",
      "package-hidden-sensitive-file",
      "package-hidden-sensitive-file",
      "package-hidden-sensitive-file",
    ]);
  });
});
