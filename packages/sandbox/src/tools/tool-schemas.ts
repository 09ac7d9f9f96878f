/**
 * The wire contract of the seven sandbox tools: DeerFlow's names and
 * snake_case parameters, as JSON Schema (the shape Pydantic gives DeerFlow's
 * signatures), so a model sees the same tools in both implementations.
 * Every tool takes a leading, optional `description` shown in the UI.
 */
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import { DEFAULT_GLOB_RESULTS, DEFAULT_GREP_RESULTS } from "../limits.js";

/** The tool names, as DeerFlow's. */
export const SANDBOX_TOOL_NAMES = ["bash", "ls", "glob", "grep", "read_file", "write_file", "str_replace"] as const;

/** One of {@link SANDBOX_TOOL_NAMES}. */
export type SandboxToolName = (typeof SANDBOX_TOOL_NAMES)[number];

const description = (what: string): JSONSchema => ({
  type: "string",
  description: `Explain why you are ${what} in short words (shown in the UI). ALWAYS PROVIDE THIS PARAMETER FIRST.`,
  default: "",
});
const text = (desc: string): JSONSchema => ({ type: "string", description: desc });
const nullable = (type: "string" | "integer", desc: string): JSONSchema => ({
  anyOf: [{ type }, { type: "null" }],
  default: null,
  description: desc,
});
const flag = (desc: string): JSONSchema => ({ type: "boolean", default: false, description: desc });
const count = (fallback: number, desc: string): JSONSchema => ({
  type: "integer",
  default: fallback,
  description: desc,
});

const object = (properties: Record<string, JSONSchema>, required: readonly string[]): JSONSchema => ({
  type: "object",
  properties,
  required: [...required],
});

/** `bash(description?, command)`. */
export const BASH_SCHEMA: JSONSchema = object(
  {
    description: description("running this command"),
    command: text("The bash command to execute. Always use absolute paths for files and directories."),
  },
  ["command"],
);

/** `ls(description?, path)`. */
export const LS_SCHEMA: JSONSchema = object(
  { description: description("listing this directory"), path: text("The **absolute** path to the directory to list.") },
  ["path"],
);

/** `glob(description?, pattern, path, include_dirs=false, max_results=200)`. */
export const GLOB_SCHEMA: JSONSchema = object(
  {
    description: description("searching for these paths"),
    pattern: text("The glob pattern to match relative to the root path, for example `**/*.py`."),
    path: text("The **absolute** root directory to search under."),
    include_dirs: flag("Whether matching directories should also be returned. Default is False."),
    max_results: count(DEFAULT_GLOB_RESULTS, `Maximum number of paths to return. Default is ${DEFAULT_GLOB_RESULTS}.`),
  },
  ["pattern", "path"],
);

/** `grep(description?, pattern, path, glob=null, literal=false, case_sensitive=false, max_results=100)`. */
export const GREP_SCHEMA: JSONSchema = object(
  {
    description: description("searching these file contents"),
    pattern: text("The string or regex pattern to search for."),
    path: text("The **absolute** file or root directory to search."),
    glob: nullable("string", "Optional glob filter for candidate files, for example `**/*.py`."),
    literal: flag("Whether to treat `pattern` as a plain string. Default is False."),
    case_sensitive: flag("Whether matching is case-sensitive. Default is False."),
    max_results: count(
      DEFAULT_GREP_RESULTS,
      `Maximum number of matching lines to return. Default is ${DEFAULT_GREP_RESULTS}.`,
    ),
  },
  ["pattern", "path"],
);

/** `read_file(description?, path, start_line=null, end_line=null)`. */
export const READ_FILE_SCHEMA: JSONSchema = object(
  {
    description: description("reading this file"),
    path: text("The **absolute** path to the file to read."),
    start_line: nullable(
      "integer",
      "Optional starting line number (1-indexed, inclusive). Omit to start at the first line.",
    ),
    end_line: nullable(
      "integer",
      "Optional ending line number (1-indexed, inclusive). Omit to read through the last line.",
    ),
  },
  ["path"],
);

/** `write_file(description?, path, content, append=false)`. */
export const WRITE_FILE_SCHEMA: JSONSchema = object(
  {
    description: description("writing to this file"),
    path: text("The **absolute** path to the file to write to."),
    content: text("The content to write to the file."),
    append: flag("Whether to append content to the end of the file instead of overwriting it. Defaults to False."),
  },
  ["path", "content"],
);

/** `str_replace(description?, path, old_str, new_str, replace_all=false)`. */
export const STR_REPLACE_SCHEMA: JSONSchema = object(
  {
    description: description("replacing this substring"),
    path: text("The **absolute** path to the file to replace the substring in."),
    old_str: text("The substring to replace."),
    new_str: text("The new substring."),
    replace_all: flag(
      "Whether to replace all occurrences of the substring. If False, the substring must appear exactly once. Default is False.",
    ),
  },
  ["path", "old_str", "new_str"],
);

/** Reads a string argument; anything else (null, missing) gives `fallback`. */
export function stringArg(args: unknown, key: string, fallback = ""): string {
  const value = (args as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === "string" ? value : fallback;
}

/** Reads an optional integer argument (`null`/missing → undefined). */
export function intArg(args: unknown, key: string): number | undefined {
  const value = (args as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

/** Reads a boolean argument with a default. */
export function boolArg(args: unknown, key: string, fallback = false): boolean {
  const value = (args as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === "boolean" ? value : fallback;
}
