import { describe, expect, it } from "vitest";
import { isPlaceholderValue, secretFindings } from "./rules-secrets.js";

const ids = (text: string, file = "references/notes.md", python = false): string[] =>
  secretFindings(file, text, python).map((f) => f.ruleId);
// Built at run time so the repository holds no key-shaped literals.
const aws = ["AKIA", "Z7Q2M4N8R1T5W3Y6"].join("");
const github = ["ghp", "_", "a".repeat(2), "Zx9Qw3Er5Ty7Ui1Op2As4Df6Gh"].join("");

describe("secretFindings", () => {
  it("flags a PEM private key header as CRITICAL with redacted evidence", () => {
    const [finding] = secretFindings("k.txt", `x\n${"-----BEGIN OPENSSH PRIVATE KEY-----"}\nabc\n`, false);
    expect(finding).toMatchObject({
      ruleId: "secret-private-key",
      severity: "CRITICAL",
      line: 2,
      evidence: "[redacted]",
    });
  });

  it("ignores a public key header", () => {
    expect(ids("-----BEGIN PUBLIC KEY-----\nMIIB\n")).toEqual([]);
  });

  it("flags an AWS access key id", () => {
    expect(ids(`aws = ${aws}`)).toContain("secret-cloud-token");
  });

  it("flags a GitHub token and redacts it", () => {
    const findings = secretFindings("a.md", `token for ci ${github}`, false);
    expect(findings.map((f) => f.ruleId)).toContain("secret-cloud-token");
    expect(findings.every((f) => f.evidence === "[redacted]")).toBe(true);
  });

  it("flags an sk- project key", () => {
    expect(ids(`OPENAI=${["sk", "proj", "Ab12Cd34Ef56Gh78Ij90Kl12"].join("-")}`)).toContain("secret-cloud-token");
  });

  it("skips placeholder tokens such as the AWS documentation key and x-runs", () => {
    expect(ids(["AKIA", "IOSFODNN7EXAMPLE"].join(""))).toEqual([]);
    expect(ids(["AKIA", "X".repeat(16)].join(""))).toEqual([]);
    expect(ids(`ghp_${"x".repeat(30)}`)).toEqual([]);
  });

  it("finds a real token after a placeholder of the same kind", () => {
    expect(ids(`${["AKIA", "X".repeat(16)].join("")} then ${aws}`)).toContain("secret-cloud-token");
  });

  it("flags a secret-like assignment with a real value", () => {
    const [finding] = secretFindings(".env.sample", "DEBUG=1\nDB_PASSWORD=s3cr3t-Value\n", false);
    expect(finding).toMatchObject({
      ruleId: "secret-env-assignment",
      severity: "HIGH",
      line: 2,
      evidence: "[redacted]",
    });
  });

  it("flags a quoted JSON credential", () => {
    expect(ids('{"api_key": "q8w7e6r5t4y3"}', "references/c.json")).toEqual(["secret-env-assignment"]);
  });

  it("ignores placeholder assignments", () => {
    for (const value of [
      "your-api-key",
      "<your-key>",
      "${API_KEY}",
      "changeme",
      "xxxx",
      '""',
      "example-token",
      "$API_TOKEN",
      "null",
    ]) {
      expect(ids(`api_key: ${value}`)).toEqual([]);
    }
  });

  it("ignores words that merely contain a secret word", () => {
    expect(ids("tokenizer = bert\nsecretive: yes\n")).toEqual([]);
  });

  it("in Python, flags only string literals bound to secret names", () => {
    expect(ids('API_KEY = "q8w7e6r5t4y3"\n', "scripts/a.py", true)).toEqual(["secret-env-assignment"]);
    expect(ids('client(api_key="q8w7e6r5t4y3")\n', "scripts/a.py", true)).toEqual(["secret-env-assignment"]);
    expect(ids('token: str = "q8w7e6r5t4y3"\n', "scripts/a.py", true)).toEqual(["secret-env-assignment"]);
  });

  it("in Python, ignores annotations, conditions, env lookups, f-strings and comments", () => {
    const source = [
      "token: Optional[str] = None",
      "if not api_key:",
      '    api_key = os.getenv("API_KEY")',
      'password = f"{prefix}-{suffix}"',
      '# secret = "q8w7e6r5t4y3"',
    ].join("\n");
    expect(ids(source, "scripts/a.py", true)).toEqual([]);
  });
});

describe("isPlaceholderValue", () => {
  it("accepts DeerFlow's placeholders and rejects real-looking values", () => {
    expect(isPlaceholderValue("'placeholder'")).toBe(true);
    expect(isPlaceholderValue("MY-EXAMPLE")).toBe(true);
    expect(isPlaceholderValue("c0rrect-h0rse")).toBe(false);
  });
});
