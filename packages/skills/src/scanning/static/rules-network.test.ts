import { describe, expect, it } from "vitest";
import { networkFindings } from "./rules-network.js";

const ids = (text: string): string[] => networkFindings("references/a.md", text).map((f) => f.ruleId);

describe("networkFindings", () => {
  it("flags the cloud metadata address as CRITICAL", () => {
    const [finding] = networkFindings("scripts/a.sh", "curl -s http169\nx 169.254.169.254/latest/meta-data\n");
    expect(finding).toMatchObject({ ruleId: "network-cloud-metadata", severity: "CRITICAL", line: 2 });
  });

  it("flags metadata.google.internal case-insensitively", () => {
    expect(ids("GET Metadata.Google.Internal/computeMetadata")).toContain("network-cloud-metadata");
  });

  it("ignores other link-local addresses", () => {
    expect(ids("ping 169.254.1.1")).toEqual([]);
  });

  it("flags the classic fork bomb", () => {
    expect(ids(":(){ :|:& };:")).toEqual(["resource-fork-bomb"]);
  });

  it("flags a fork bomb under another name", () => {
    expect(ids("bomb() { bomb | bomb & }; bomb")).toEqual(["resource-fork-bomb"]);
  });

  it("ignores an ordinary function that calls itself once", () => {
    expect(ids("retry() { retry | tee log; }; retry")).toEqual([]);
  });

  it("flags external cleartext http as MEDIUM and local http as LOW", () => {
    const findings = networkFindings("a.md", "dev: http://localhost:8080\nprod: http://api.example.com\n");
    expect(findings.map((f) => [f.ruleId, f.severity, f.line])).toEqual([
      ["network-local-http", "LOW", 1],
      ["network-cleartext-http", "MEDIUM", 2],
    ]);
  });

  it("treats private ranges as local", () => {
    for (const host of ["10.1.2.3", "192.168.0.10", "172.16.0.1", "172.31.255.1", "[::1]", "0.0.0.0"]) {
      expect(ids(`http://${host}/x`)).toEqual(["network-local-http"]);
    }
    expect(ids("http://172.32.0.1/x")).toEqual(["network-cleartext-http"]);
  });

  it("ignores https", () => {
    expect(ids("https://example.com")).toEqual([]);
  });
});
