/** A secret a skill asks the caller to supply (`required-secrets`). */
export interface SecretRequirement {
  /** Environment variable name, `^[A-Za-z_][A-Za-z0-9_]*$`. */
  readonly name: string;
  readonly optional: boolean;
}

/** SKILL.md frontmatter after validation and normalisation (camelCase). */
export interface SkillFrontmatter {
  /** Hyphen-case identifier (1..64 chars). */
  readonly name: string;
  /** What the skill does and when to use it (1..1024 chars, no angle brackets). */
  readonly description: string;
  readonly license?: string;
  /** Environment requirements (at most 500 chars). */
  readonly compatibility?: string;
  /**
   * Tools the skill declares. `undefined` means nothing declared (all tools);
   * `[]` explicitly allows no business tools.
   */
  readonly allowedTools?: readonly string[];
  /** Free-form string map from the `metadata` key. */
  readonly metadata: Readonly<Record<string, string>>;
  readonly version?: string;
  readonly author?: string;
  /** Secrets the skill asks for (`required-secrets`). */
  readonly requiredSecrets: readonly SecretRequirement[];
  /** Whether secrets may be injected when the model activates the skill itself (default true). */
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
