import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH, MAX_SKILL_NAME_LENGTH } from "../limits.js";

/** Frontmatter keys a SKILL.md may use (DeerFlow's list plus the specification's). */
export const ALLOWED_FRONTMATTER_KEYS = [
  "name",
  "description",
  "license",
  "allowed-tools",
  "required-secrets",
  "secrets-autonomous",
  "metadata",
  "compatibility",
  "version",
  "author",
] as const;

/** Hyphen-case: lowercase letters and digits in groups joined by single hyphens. */
export const SKILL_NAME_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$";

const scalar = { type: ["string", "number", "boolean"] };

/**
 * JSON Schema (draft 07) of SKILL.md frontmatter after `name` and `description`
 * have been trimmed. Exported so other tools (editors, the gateway's OpenAPI)
 * can reuse it.
 */
export const skillFrontmatterSchema = {
  $id: "https://deerflow.dev/schemas/skill-frontmatter.json",
  type: "object",
  required: ["name", "description"],
  additionalProperties: false,
  properties: {
    name: {
      type: "string",
      minLength: 1,
      allOf: [{ pattern: "^[a-z0-9-]+$" }, { pattern: SKILL_NAME_PATTERN }],
      maxLength: MAX_SKILL_NAME_LENGTH,
    },
    description: { type: "string", minLength: 1, maxLength: MAX_DESCRIPTION_LENGTH, pattern: "^[^<>]*$" },
    license: scalar,
    compatibility: { type: "string", maxLength: MAX_COMPATIBILITY_LENGTH },
    version: scalar,
    author: { type: "string" },
    "allowed-tools": {
      anyOf: [{ type: "string" }, { type: "null" }, { type: "array", items: { type: "string", pattern: "\\S" } }],
    },
    "required-secrets": { anyOf: [{ type: "array" }, { type: "null" }] },
    "secrets-autonomous": { type: "boolean" },
    metadata: { anyOf: [{ type: "object", additionalProperties: scalar }, { type: "null" }] },
  },
} as const;

let compiled: ValidateFunction | undefined;

/** The compiled validator (compiled once, lazily). */
function frontmatterValidator(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(skillFrontmatterSchema);
  return compiled;
}

/** Runs the schema and returns ajv's raw errors (empty when valid). */
export function schemaErrors(frontmatter: Record<string, unknown>): ErrorObject[] {
  const validate = frontmatterValidator();
  return validate(frontmatter) ? [] : [...(validate.errors ?? [])];
}
