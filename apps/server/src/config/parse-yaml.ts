/**
 * Parses `config.yaml` with js-yaml's YAML 1.2 core schema (no custom tags,
 * `yes` stays a string, duplicate keys are errors) and reports syntax errors
 * with their line and column.
 */
import { load, YAMLException } from "js-yaml";
import { configError } from "./errors.js";

/**
 * Parses YAML text. An empty document is `{}`.
 *
 * @param text - file content
 * @param label - file label for messages
 * @returns the document (a mapping)
 * @throws ServerConfigError `CONFIG_PARSE` with `invalid YAML at line L, column C: reason` and a snippet,
 *   or when the top level is not a mapping
 */
export function parseYamlConfig(text: string, label: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = load(text, { filename: label });
  } catch (err) {
    if (err instanceof YAMLException) {
      const mark = err.mark as { line?: number; column?: number; snippet?: string } | undefined;
      const where = mark?.line === undefined ? "" : ` at line ${mark.line + 1}, column ${(mark.column ?? 0) + 1}`;
      const snippet = mark?.snippet ? `\n${mark.snippet}` : "";
      return rethrow(
        configError(
          "CONFIG_PARSE",
          label,
          [{ path: "", message: `invalid YAML${where}: ${err.reason}${snippet}` }],
          err,
        ),
      );
    }
    throw err;
  }
  if (doc === undefined || doc === null) return {};
  if (typeof doc !== "object" || Array.isArray(doc)) {
    throw configError("CONFIG_PARSE", label, [
      {
        path: "",
        message: `the top level must be a mapping of sections (server:, models:, ...), got ${Array.isArray(doc) ? "a list" : typeof doc}`,
      },
    ]);
  }
  return doc as Record<string, unknown>;
}

function rethrow(err: Error): never {
  throw err;
}
