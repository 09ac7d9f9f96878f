import { describe, expect, it } from "vitest";
import type { Finding } from "../types.js";
import { makeFinding } from "./catalogue.js";
import { buildScanReport, compareFindings, dedupeFindings, formatFindings, toWireFinding } from "./findings.js";

const key = makeFinding("secret-private-key", { file: "scripts/k.pem", line: 3, evidence: "-----BEGIN" });
const total = makeFinding("package-oversized-total", { file: null, evidence: "600 bytes" });

describe("formatFindings", () => {
  it("formats file, line, severity, message and remediation exactly", () => {
    expect(formatFindings([key])).toBe(
      "secret-private-key (CRITICAL) at scripts/k.pem:3: Private key material is embedded in skill content. " +
        "Remediation: Move private keys to a managed secret store and remove them from the skill.",
    );
  });

  it("shows <archive> for archive-level findings and joins with '; '", () => {
    expect(formatFindings([total, key]).split("; ")[0]).toBe(
      "package-oversized-total (CRITICAL) at <archive>: Package total uncompressed size exceeds the limit. Remediation: Remove large files or split assets out of the skill package.",
    );
    expect(formatFindings([total, key]).split("; ")).toHaveLength(2);
  });

  it("omits the line when there is none", () => {
    expect(formatFindings([makeFinding("package-symlink", { file: "a" })])).toMatch(/^package-symlink \(HIGH\) at a: /);
  });
});

describe("makeFinding", () => {
  it("always redacts secret evidence", () => {
    expect(makeFinding("secret-cloud-token", { file: "a", evidence: "real-token" }).evidence).toBe("[redacted]");
  });

  it("truncates long evidence", () => {
    expect(
      makeFinding("network-cleartext-http", { file: "a", evidence: "x".repeat(500) }).evidence?.length,
    ).toBeLessThan(210);
  });

  it("rejects unknown rule ids", () => {
    expect(() => makeFinding("no-such-rule", { file: null })).toThrow(/Unknown SkillScan rule/);
  });
});

describe("buildScanReport", () => {
  it("dedupes on rule, file and line, sorts and derives blocked", () => {
    const a = makeFinding("network-local-http", { file: "b.md", line: 2 });
    const b = makeFinding("network-cleartext-http", { file: "b.md", line: 2 });
    const c = makeFinding("package-symlink", { file: "a.md" });
    const report = buildScanReport([a, b, a, c, { ...a, evidence: "other" }]);
    expect(report.findings.map((f) => [f.file, f.ruleId])).toEqual([
      ["a.md", "package-symlink"],
      ["b.md", "network-cleartext-http"],
      ["b.md", "network-local-http"],
    ]);
    expect(report.blocked).toBe(false);
    expect(buildScanReport([c, key]).blocked).toBe(true);
  });
});

describe("compareFindings", () => {
  it("puts archive-level findings and line-less findings first", () => {
    const withLine = makeFinding("network-local-http", { file: "a", line: 1 });
    const noLine = makeFinding("package-symlink", { file: "a" });
    const sorted: Finding[] = [withLine, noLine, total].sort(compareFindings);
    expect(sorted).toEqual([total, noLine, withLine]);
    expect(dedupeFindings([withLine, withLine])).toHaveLength(1);
  });
});

describe("toWireFinding", () => {
  it("uses DeerFlow's snake_case keys", () => {
    expect(toWireFinding(key)).toEqual({
      rule_id: "secret-private-key",
      severity: "CRITICAL",
      file: "scripts/k.pem",
      line: 3,
      message: key.message,
      remediation: key.remediation,
      evidence: "[redacted]",
    });
  });
});
