import type { ErrorObject } from "ajv";
import type { ValidationIssue } from "../model/frontmatter.js";

/** Python type names, because DeerFlow's messages say `got int`, `got list`... */
function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (Array.isArray(value)) return "list";
  switch (typeof value) {
    case "string":
      return "str";
    case "boolean":
      return "bool";
    case "number":
      return Number.isInteger(value) ? "int" : "float";
    default:
      return "dict";
  }
}

/** Check order of DeerFlow's validator; issues are sorted by it so `errors[0]` matches DeerFlow. */
const FIELD_RANK: Record<string, number> = {
  "": 0,
  name: 2,
  description: 3,
  "allowed-tools": 4,
  "required-secrets": 5,
  "secrets-autonomous": 6,
  compatibility: 7,
  metadata: 8,
  license: 9,
  version: 10,
  author: 11,
};

/** Sort key for an issue: unknown keys, then missing keys, then fields in DeerFlow order. */
export function issueRank(issue: ValidationIssue): number {
  if (issue.code === "unknown-key") return 0;
  if (issue.code === "name-missing") return 1;
  if (issue.code === "description-missing") return 1.5;
  return (FIELD_RANK[issue.field ?? ""] ?? 20) + (issue.code.endsWith("-mismatch") ? 0.5 : 0);
}

const TOO_LONG = (label: string, len: number, max: number): string =>
  `${label} is too long (${len} characters). Maximum is ${max} characters.`;

/**
 * Translates ajv errors for the frontmatter schema into issues with DeerFlow's
 * messages. `fm` is the (trimmed) frontmatter the schema saw.
 */
export function issuesFromSchemaErrors(errors: readonly ErrorObject[], fm: Record<string, unknown>): ValidationIssue[] {
  const issues = new Map<string, ValidationIssue>();
  const add = (issue: ValidationIssue): void => {
    if (!issues.has(issue.code)) issues.set(issue.code, issue);
  };
  const unknown = errors
    .filter((e) => e.keyword === "additionalProperties" && e.instancePath === "")
    .map((e) => String((e.params as { additionalProperty: string }).additionalProperty))
    .sort();
  if (unknown.length > 0) {
    add({
      code: "unknown-key",
      field: null,
      message: `Unexpected key(s) in SKILL.md frontmatter: ${unknown.join(", ")}`,
    });
  }
  const nameFormatFailed = errors.some((e) => e.instancePath === "/name" && e.schemaPath.endsWith("allOf/0/pattern"));
  for (const e of errors) {
    const field = e.instancePath.split("/")[1]?.replace(/~1/g, "/").replace(/~0/g, "~") ?? "";
    const value = fm[field];
    if (e.keyword === "required") {
      const key = String((e.params as { missingProperty: string }).missingProperty);
      add({ code: `${key}-missing`, field: key, message: `Missing '${key}' in frontmatter` });
      continue;
    }
    const len = typeof value === "string" ? value.length : 0;
    switch (field) {
      case "name":
        if (e.keyword === "type")
          add({ code: "name-type", field, message: `Name must be a string, got ${pythonTypeName(value)}` });
        else if (e.keyword === "minLength") add({ code: "name-empty", field, message: "Name cannot be empty" });
        else if (e.keyword === "pattern" && len > 0 && e.schemaPath.endsWith("allOf/0/pattern"))
          add({
            code: "name-format",
            field,
            message: `Name '${String(value)}' should be hyphen-case (lowercase letters, digits, and hyphens only)`,
          });
        else if (e.keyword === "pattern" && !nameFormatFailed && len > 0)
          add({
            code: "name-hyphens",
            field,
            message: `Name '${String(value)}' cannot start/end with hyphen or contain consecutive hyphens`,
          });
        else if (e.keyword === "maxLength") add({ code: "name-too-long", field, message: TOO_LONG("Name", len, 64) });
        break;
      case "description":
        if (e.keyword === "type")
          add({
            code: "description-type",
            field,
            message: `Description must be a string, got ${pythonTypeName(value)}`,
          });
        else if (e.keyword === "minLength")
          add({ code: "description-empty", field, message: "Description cannot be empty" });
        else if (e.keyword === "pattern")
          add({
            code: "description-angle-brackets",
            field,
            message: "Description cannot contain angle brackets (< or >)",
          });
        else if (e.keyword === "maxLength")
          add({ code: "description-too-long", field, message: TOO_LONG("Description", len, 1024) });
        break;
      case "allowed-tools":
        add({ code: "allowed-tools-invalid", field, message: allowedToolsMessage(value) });
        break;
      case "required-secrets":
        add({ code: "required-secrets-invalid", field, message: "required-secrets in SKILL.md must be a list" });
        break;
      case "secrets-autonomous":
        add({ code: "secrets-autonomous-invalid", field, message: "secrets-autonomous in SKILL.md must be a boolean" });
        break;
      case "metadata":
        add({ code: "metadata-invalid", field, message: "metadata in SKILL.md must be a map of string values" });
        break;
      case "compatibility":
        if (e.keyword === "maxLength")
          add({ code: "compatibility-too-long", field, message: TOO_LONG("Compatibility", len, 500) });
        else
          add({
            code: "compatibility-type",
            field,
            message: `Compatibility must be a string, got ${pythonTypeName(value)}`,
          });
        break;
      case "license":
      case "version":
      case "author":
        add({
          code: `${field}-type`,
          field,
          message: `${field[0]!.toUpperCase()}${field.slice(1)} must be a string, got ${pythonTypeName(value)}`,
        });
        break;
      default:
        break;
    }
  }
  return [...issues.values()];
}

function allowedToolsMessage(value: unknown): string {
  if (!Array.isArray(value)) return "allowed-tools in SKILL.md must be a list of strings";
  if (value.some((v) => typeof v !== "string")) return "allowed-tools in SKILL.md must contain only strings";
  return "allowed-tools in SKILL.md cannot contain empty tool names";
}
