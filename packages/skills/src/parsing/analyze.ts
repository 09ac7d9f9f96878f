import type { SecretRequirement, SkillFrontmatter, ValidationIssue } from "../model/frontmatter.js";
import { splitFrontmatter } from "./frontmatter.js";
import { schemaErrors } from "./frontmatter-schema.js";
import { issueRank, issuesFromSchemaErrors } from "./issues.js";
import { loadFrontmatterYaml } from "./yaml.js";

/** Options shared by the strict validator and the lenient loader. */
export interface AnalyzeOptions {
  /** Name of the directory holding SKILL.md; the specification wants it to equal `name`. */
  readonly directoryName?: string;
  /** When set, the frontmatter name must equal it (edits of an existing skill). */
  readonly expectedName?: string;
}

/** Everything known about one SKILL.md text. */
export interface SkillAnalysis {
  /** Normalised frontmatter, present whenever name and description are usable strings. */
  readonly frontmatter: SkillFrontmatter | undefined;
  /** The trimmed frontmatter `name` whenever it is a string, valid or not. */
  readonly name: string | undefined;
  /** The Markdown body after the frontmatter. */
  readonly body: string;
  /** Problems, sorted in DeerFlow's check order. */
  readonly issues: readonly ValidationIssue[];
  /** Problems that never make a skill invalid (e.g. a malformed optional secret entry). */
  readonly notes: readonly ValidationIssue[];
  /** 0-based YAML line of a parse error plus a hint, for load-time diagnostics. */
  readonly yamlError?: { readonly line: number | undefined; readonly hint: string | undefined };
}

/**
 * Issue codes that make a skill unusable even for lenient loading. Everything
 * else (unknown keys, name style, over-long text...) only warns when loading.
 */
export const BLOCKING_ISSUE_CODES: ReadonlySet<string> = new Set([
  "file-missing",
  "file-too-large",
  "encoding-invalid",
  "frontmatter-missing",
  "yaml-invalid",
  "yaml-alias-bomb",
  "frontmatter-not-mapping",
  "name-missing",
  "name-type",
  "name-empty",
  "description-missing",
  "description-type",
  "description-empty",
  "allowed-tools-invalid",
  "required-secrets-invalid",
]);

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses and checks one SKILL.md text against every rule, without touching the disk. */
export function analyzeSkillMarkdown(content: string, options: AnalyzeOptions = {}): SkillAnalysis {
  const split = splitFrontmatter(content);
  if (!split) return failed("frontmatter-missing", "No YAML frontmatter found");
  const loaded = loadFrontmatterYaml(split.yaml);
  if (!loaded.ok) {
    const message =
      loaded.code === "yaml-alias-bomb"
        ? `Invalid YAML in frontmatter: too many aliases (${loaded.reason})`
        : `Invalid YAML in frontmatter: ${loaded.reason}`;
    return {
      ...failed(loaded.code, message, split.body),
      yamlError: { line: loaded.line, hint: colonHint(split.yaml, loaded.line) },
    };
  }
  const raw = loaded.value;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return failed("frontmatter-not-mapping", "Frontmatter must be a YAML dictionary", split.body);
  }
  const fm: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const key of ["name", "description"] as const)
    if (typeof fm[key] === "string") fm[key] = (fm[key] as string).trim();

  const issues = issuesFromSchemaErrors(schemaErrors(fm), fm);
  const name = typeof fm["name"] === "string" ? fm["name"] : undefined;
  if (name && options.directoryName !== undefined && options.directoryName !== name) {
    issues.push({
      code: "name-directory-mismatch",
      field: "name",
      message: `Name '${name}' must match its directory name '${options.directoryName}'`,
    });
  }
  if (name && options.expectedName !== undefined && options.expectedName !== name) {
    issues.push({
      code: "name-mismatch",
      field: "name",
      message: `Frontmatter name '${name}' must match requested skill name '${options.expectedName}'.`,
    });
  }
  issues.sort((a, b) => issueRank(a) - issueRank(b));
  const notes: ValidationIssue[] = [];
  const blocked = issues.some((i) => BLOCKING_ISSUE_CODES.has(i.code));
  return { frontmatter: blocked ? undefined : normalize(fm, notes), name, body: split.body, issues, notes };
}

function failed(code: string, message: string, body = ""): SkillAnalysis {
  return { frontmatter: undefined, name: undefined, body, issues: [{ code, field: null, message }], notes: [] };
}

function optionalString(value: unknown): string | undefined {
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return undefined;
  const s = String(value).trim();
  return s === "" ? undefined : s;
}

function normalize(fm: Record<string, unknown>, notes: ValidationIssue[]): SkillFrontmatter {
  const tools = fm["allowed-tools"];
  const allowedTools =
    typeof tools === "string"
      ? tools.split(/\s+/).filter(Boolean)
      : Array.isArray(tools)
        ? tools.map((t) => String(t).trim())
        : undefined;
  const metadata: Record<string, string> = {};
  const rawMeta = fm["metadata"];
  if (rawMeta && typeof rawMeta === "object" && !Array.isArray(rawMeta)) {
    for (const [k, v] of Object.entries(rawMeta)) {
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") metadata[k] = String(v);
    }
  }
  const out: {
    -readonly [K in keyof SkillFrontmatter]: SkillFrontmatter[K];
  } = {
    name: String(fm["name"]),
    description: String(fm["description"]),
    metadata,
    requiredSecrets: parseSecrets(fm["required-secrets"], notes),
    // DeerFlow fails closed: anything but a real boolean means "not autonomous".
    secretsAutonomous: fm["secrets-autonomous"] === undefined ? true : fm["secrets-autonomous"] === true,
  };
  const license = optionalString(fm["license"]);
  if (license !== undefined) out.license = license;
  const compatibility = typeof fm["compatibility"] === "string" ? optionalString(fm["compatibility"]) : undefined;
  if (compatibility !== undefined) out.compatibility = compatibility;
  if (allowedTools !== undefined) out.allowedTools = allowedTools;
  const version = optionalString(fm["version"]);
  if (version !== undefined) out.version = version;
  const author = typeof fm["author"] === "string" ? optionalString(fm["author"]) : undefined;
  if (author !== undefined) out.author = author;
  return out;
}

function parseSecrets(value: unknown, notes: ValidationIssue[]): SecretRequirement[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const out: SecretRequirement[] = [];
  value.forEach((entry: unknown, index) => {
    const obj =
      entry !== null && typeof entry === "object" && !Array.isArray(entry)
        ? (entry as Record<string, unknown>)
        : undefined;
    const name = typeof entry === "string" ? entry.trim() : typeof obj?.["name"] === "string" ? obj["name"].trim() : "";
    if (!SECRET_NAME.test(name)) {
      notes.push({
        code: "required-secrets-entry",
        field: "required-secrets",
        message: `required-secrets entry ${index} is not a valid secret name and was ignored`,
      });
      return;
    }
    if (seen.has(name)) return;
    seen.add(name);
    out.push({ name, optional: obj?.["optional"] === true });
  });
  return out;
}

/**
 * DeerFlow's hint for the most common YAML mistake: an unquoted value that
 * itself contains `": "`.
 */
function colonHint(yaml: string, line: number | undefined): string | undefined {
  if (line === undefined) return undefined;
  const text = yaml.split("\n")[line];
  const m = text === undefined ? null : /^(\s*[^:\s][^:]*):\s*(.*)$/.exec(text);
  if (!m) return undefined;
  const value = m[2] ?? "";
  if (!value.includes(":") || /^["'|>[{]/.test(value)) return undefined;
  const escaped = value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  return `values containing ":" must be quoted, e.g. ${m[1]}: "${escaped}"`;
}
