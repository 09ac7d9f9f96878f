import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_SKILL_FILE_BYTES } from "../limits.js";
import { validateSkillDirectory, validateSkillMarkdown, validationMessage } from "./validate.js";

const skill = (fm: string, body = "# Body\n"): string => `---\n${fm}\n---\n${body}`;
const first = (content: string, opts = {}): string => validationMessage(validateSkillMarkdown(content, opts));

describe("validateSkillMarkdown", () => {
  it("accepts a minimal skill", () => {
    const r = validateSkillMarkdown(skill("name: my-skill\ndescription: Does things."));
    expect(r).toMatchObject({ ok: true, name: "my-skill", errors: [] });
    expect(validationMessage(r)).toBe("Skill is valid!");
    expect(r.frontmatter).toMatchObject({
      name: "my-skill",
      description: "Does things.",
      metadata: {},
      secretsAutonomous: true,
    });
  });

  it("uses DeerFlow's messages for structural problems", () => {
    expect(first("no frontmatter")).toBe("No YAML frontmatter found");
    expect(first(skill("- a\n- b"))).toBe("Frontmatter must be a YAML dictionary");
    expect(first(skill(""))).toBe("Frontmatter must be a YAML dictionary");
    expect(first(skill("name: x\ndescription: foo: bar"))).toMatch(/^Invalid YAML in frontmatter: bad indentation/);
  });

  it("reports unknown keys sorted, including non-string keys", () => {
    const r = validateSkillMarkdown(skill("name: a\ndescription: d\ncustom-field: 1\n42: x\nzeta: z"));
    expect(r.errors[0]).toEqual({
      code: "unknown-key",
      field: null,
      message: "Unexpected key(s) in SKILL.md frontmatter: 42, custom-field, zeta",
    });
  });

  it("reports missing name and description", () => {
    expect(first(skill("description: d"))).toBe("Missing 'name' in frontmatter");
    expect(first(skill("name: a"))).toBe("Missing 'description' in frontmatter");
  });

  it.each([
    ["name: 42", "Name must be a string, got int"],
    ["name: [a]", "Name must be a string, got list"],
    ["name: '  '", "Name cannot be empty"],
    ["name: My_Skill", "Name 'My_Skill' should be hyphen-case (lowercase letters, digits, and hyphens only)"],
    ["name: -skill", "Name '-skill' cannot start/end with hyphen or contain consecutive hyphens"],
    ["name: skill-", "Name 'skill-' cannot start/end with hyphen or contain consecutive hyphens"],
    ["name: a--b", "Name 'a--b' cannot start/end with hyphen or contain consecutive hyphens"],
    [`name: ${"a".repeat(65)}`, "Name is too long (65 characters). Maximum is 64 characters."],
  ])("rejects %s", (fm, message) => {
    expect(first(skill(`${fm}\ndescription: d`))).toBe(message);
  });

  it("accepts a 64-character name and trims names", () => {
    expect(validateSkillMarkdown(skill(`name: ${"a".repeat(64)}\ndescription: d`)).ok).toBe(true);
    expect(validateSkillMarkdown(skill("name: '  padded  '\ndescription: d")).name).toBe("padded");
  });

  it.each([
    ["description: 3", "Description must be a string, got int"],
    ["description: use <b>bold</b>", "Description cannot contain angle brackets (< or >)"],
    [`description: ${"d".repeat(1025)}`, "Description is too long (1025 characters). Maximum is 1024 characters."],
    ["description: ''", "Description cannot be empty"],
  ])("rejects %s", (fm, message) => {
    expect(first(skill(`name: a\n${fm}`))).toBe(message);
  });

  it("checks compatibility length", () => {
    expect(first(skill(`name: a\ndescription: d\ncompatibility: ${"c".repeat(501)}`))).toBe(
      "Compatibility is too long (501 characters). Maximum is 500 characters.",
    );
    expect(validateSkillMarkdown(skill(`name: a\ndescription: d\ncompatibility: ${"c".repeat(500)}`)).ok).toBe(true);
  });

  it("accepts allowed-tools as a YAML list or a space-separated string", () => {
    expect(
      validateSkillMarkdown(skill("name: a\ndescription: d\nallowed-tools: [read_file, bash]")).frontmatter
        ?.allowedTools,
    ).toEqual(["read_file", "bash"]);
    expect(
      validateSkillMarkdown(skill("name: a\ndescription: d\nallowed-tools: Read Bash(git:*)  Grep")).frontmatter
        ?.allowedTools,
    ).toEqual(["Read", "Bash(git:*)", "Grep"]);
    expect(
      validateSkillMarkdown(skill("name: a\ndescription: d\nallowed-tools: []")).frontmatter?.allowedTools,
    ).toEqual([]);
    expect(validateSkillMarkdown(skill("name: a\ndescription: d")).frontmatter?.allowedTools).toBeUndefined();
  });

  it.each([
    ["allowed-tools: {a: 1}", "allowed-tools in SKILL.md must be a list of strings"],
    ["allowed-tools: [a, 3]", "allowed-tools in SKILL.md must contain only strings"],
    ["allowed-tools: [a, '  ']", "allowed-tools in SKILL.md cannot contain empty tool names"],
    ["required-secrets: API_KEY", "required-secrets in SKILL.md must be a list"],
    ["secrets-autonomous: 'yes'", "secrets-autonomous in SKILL.md must be a boolean"],
    ["metadata: [a]", "metadata in SKILL.md must be a map of string values"],
    ["metadata: {nested: {a: 1}}", "metadata in SKILL.md must be a map of string values"],
  ])("rejects %s", (fm, message) => {
    expect(first(skill(`name: a\ndescription: d\n${fm}`))).toBe(message);
  });

  it("stringifies scalar metadata values", () => {
    const r = validateSkillMarkdown(
      skill("name: a\ndescription: d\nmetadata:\n  version: '1.0'\n  stars: 5\n  beta: true"),
    );
    expect(r.frontmatter?.metadata).toEqual({ version: "1.0", stars: "5", beta: "true" });
  });

  it("parses required secrets, dropping bad entries with a warning", () => {
    const r = validateSkillMarkdown(
      skill(
        "name: a\ndescription: d\nrequired-secrets:\n  - API_KEY\n  - {name: TOKEN, optional: true}\n  - 'bad name'\n  - API_KEY",
      ),
    );
    expect(r.ok).toBe(true);
    expect(r.frontmatter?.requiredSecrets).toEqual([
      { name: "API_KEY", optional: false },
      { name: "TOKEN", optional: true },
    ]);
    expect(r.warnings.map((w) => w.code)).toEqual(["required-secrets-entry"]);
  });

  it("returns every problem, in DeerFlow's order", () => {
    const r = validateSkillMarkdown(skill("name: Bad_Name\ndescription: a <tag>\nextra: 1\ncompatibility: 5"));
    expect(r.errors.map((e) => e.code)).toEqual([
      "unknown-key",
      "name-format",
      "description-angle-brackets",
      "compatibility-type",
    ]);
    expect(r.errors.map((e) => e.field)).toEqual([null, "name", "description", "compatibility"]);
  });

  it("checks the requested name", () => {
    expect(first(skill("name: other\ndescription: d"), { expectedName: "mine" })).toBe(
      "Frontmatter name 'other' must match requested skill name 'mine'.",
    );
  });

  it("rejects a YAML alias bomb with a specific error", () => {
    const bomb = [
      "a: &a [x,x,x,x,x,x,x,x,x,x]",
      ...Array.from({ length: 8 }, (_, i) => {
        const p = String.fromCharCode(97 + i);
        const c = String.fromCharCode(98 + i);
        return `${c}: &${c} [${Array(10).fill(`*${p}`).join(",")}]`;
      }),
    ].join("\n");
    const r = validateSkillMarkdown(skill(`name: a\ndescription: d\nx:\n  ${bomb.split("\n").join("\n  ")}`));
    expect(r.errors[0]?.code).toBe("yaml-alias-bomb");
    expect(r.errors[0]?.message).toMatch(/^Invalid YAML in frontmatter: too many aliases/);
  });
});

describe("validateSkillDirectory", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "skills-validate-"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const make = async (dir: string, content: string | Buffer): Promise<string> => {
    const d = path.join(root, dir);
    await mkdir(d, { recursive: true });
    await writeFile(path.join(d, "SKILL.md"), content);
    return d;
  };

  it("reports a missing SKILL.md", async () => {
    await mkdir(path.join(root, "empty"));
    expect(validationMessage(await validateSkillDirectory(path.join(root, "empty")))).toBe("SKILL.md not found");
  });

  it("requires the name to match the directory name", async () => {
    const d = await make("vercel-deploy-claimable", skill("name: vercel-deploy\ndescription: d"));
    const r = await validateSkillDirectory(d);
    expect(r.errors).toEqual([
      {
        code: "name-directory-mismatch",
        field: "name",
        message: "Name 'vercel-deploy' must match its directory name 'vercel-deploy-claimable'",
      },
    ]);
    expect((await validateSkillDirectory(d, { requireDirectoryNameMatch: false })).ok).toBe(true);
  });

  it("rejects files over 10 MiB before reading them", async () => {
    const d = await make("big", Buffer.alloc(MAX_SKILL_FILE_BYTES + 1, 0x61));
    const r = await validateSkillDirectory(d);
    expect(r.errors[0]?.code).toBe("file-too-large");
  });

  it("counts bytes, not characters", async () => {
    // 3-byte characters: under the cap in characters, over it in bytes.
    const chars = Math.floor(MAX_SKILL_FILE_BYTES / 3) + 10;
    const d = await make("multibyte", skill("name: multibyte\ndescription: d", "€".repeat(chars)));
    expect((await validateSkillDirectory(d)).errors[0]?.code).toBe("file-too-large");
  });

  it("rejects invalid UTF-8", async () => {
    const d = await make(
      "latin1",
      Buffer.concat([Buffer.from("---\nname: latin1\ndescription: caf"), Buffer.from([0xe9]), Buffer.from("\n---\n")]),
    );
    expect(validationMessage(await validateSkillDirectory(d))).toBe("SKILL.md must be valid UTF-8");
  });
});
