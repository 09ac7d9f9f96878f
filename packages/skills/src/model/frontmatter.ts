/** A secret a skill asks the caller to supply (`required-secrets`). */
export interface SecretRequirement {
  /** Environment variable name, `^[A-Za-z_][A-Za-z0-9_]*$`. */
  readonly name: string;
  readonly optional: boolean;
}

/** SKILL.md frontmatter after validation and normalisation (camelCase). */
export interface SkillFrontmatter {
  readonly name: string;
  readonly description: string;
  readonly license?: string;
  readonly compatibility?: string;
  /** `undefined`: nothing declared; `[]`: explicitly no business tools. */
  readonly allowedTools?: readonly string[];
  readonly metadata: Readonly<Record<string, string>>;
  readonly version?: string;
  readonly author?: string;
  readonly requiredSecrets: readonly SecretRequirement[];
  /** Whether secrets may be injected when the model loads the skill by itself (default true). */
  readonly secretsAutonomous: boolean;
}

/** One problem found in a SKILL.md, with a stable `code`. */
export interface ValidationIssue {
  /** Stable kebab-case identifier, e.g. `name-format`, `description-too-long`. */
  readonly code: string;
  /** The frontmatter key concerned, or `null` for the file as a whole. */
  readonly field: string | null;
  /** Human-readable message (DeerFlow's wording where DeerFlow has one). */
  readonly message: string;
}
