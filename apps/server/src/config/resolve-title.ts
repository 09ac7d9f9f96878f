/**
 * Resolves `title:` of `config.yaml` (DeerFlow's keys and defaults, §3.2):
 * `enabled` (true), `max_words` (6, 1–20), `max_chars` (60, 10–200),
 * `model_name` (none: the local title), `prompt_template` (DeerFlow's).
 * The ranges are in the schema; a `model_name` must be a configured model.
 */
import type { TitleSettings } from "./types.js";

type Doc = Record<string, unknown>;

/**
 * @param doc - the validated document
 * @param modelNames - the configured models
 * @param problem - records a problem at a key path
 * @returns the `title:` settings with defaults
 */
export function resolveTitle(
  doc: Doc,
  modelNames: readonly string[],
  problem: (path: string, message: string) => void,
): TitleSettings {
  const t = (doc["title"] as Doc | undefined) ?? {};
  const modelName = t["model_name"] as string | undefined;
  if (modelName !== undefined && !modelNames.includes(modelName))
    problem("title.model_name", `unknown model "${modelName}" (configured: ${modelNames.join(", ")})`);
  return {
    enabled: (t["enabled"] as boolean | undefined) ?? true,
    maxWords: (t["max_words"] as number | undefined) ?? 6,
    maxChars: (t["max_chars"] as number | undefined) ?? 60,
    ...(modelName === undefined ? {} : { modelName }),
    ...(t["prompt_template"] === undefined ? {} : { promptTemplate: t["prompt_template"] as string }),
  };
}
