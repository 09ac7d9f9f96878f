/**
 * `tools:` and `tool_groups:` (DeerFlow's `{name, group, use, ...options}`
 * entries), validated by `@deerflow/tools` against each provider's JSON
 * Schema; its problems are reported with their key paths like every other
 * config problem.
 */
import { validateToolsConfig, type ToolsConfig } from "@deerflow/tools";

type Doc = Readonly<Record<string, unknown>>;

/**
 * @param doc - the validated document
 * @param problem - collects `path: message` problems
 * @returns the entries, built-in options with their defaults
 */
export function resolveTools(doc: Doc, problem: (path: string, message: string) => void): ToolsConfig {
  const { config, problems } = validateToolsConfig(doc);
  for (const p of problems) problem(p.path, p.message);
  return config;
}
