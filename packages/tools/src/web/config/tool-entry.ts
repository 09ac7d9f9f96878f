/** The `tools:` / `tool_groups:` entries of `config.yaml`, DeerFlow's shape. */

/** Which built-in tool a provider id serves. */
export type WebToolKind = "web_search" | "web_fetch" | "image_search";

/** One `tools:` entry: `{name, group, use, ...options}`. */
export interface ToolEntry {
  /** The tool's name as the model sees it (a plugin tool's own `name` wins, as DeerFlow). */
  readonly name: string;
  /** Group for whitelisting (`web`, `file:read`...). */
  readonly group: string;
  /** A built-in provider id (`brave`, `fetch`...) or `"<module>:<export>"` for a plugin tool. */
  readonly use: string;
  /** Every other key of the entry, snake_case as written, defaults filled in for built-ins. */
  readonly options: Readonly<Record<string, unknown>>;
  /** For built-ins: which tool; absent for plugin tools. */
  readonly kind?: WebToolKind;
}

/** The validated `tools:` and `tool_groups:` sections. */
export interface ToolsConfig {
  readonly tools: readonly ToolEntry[];
  /** Names declared under `tool_groups:` (empty when the section is absent). */
  readonly toolGroups: readonly string[];
}

/** One problem in the sections, with the key path (`tools[2].max_results`). */
export interface ToolConfigProblem {
  readonly path: string;
  readonly message: string;
}
