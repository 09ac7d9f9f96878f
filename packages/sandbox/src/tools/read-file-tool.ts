/**
 * The `read_file` tool: a UTF-8 text file, whole or a 1-based line range.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import type { Sandbox } from "../sandbox.js";
import { acquireSandbox, defineSandboxTool, type SandboxTool, type ToolArgs } from "./define-tool.js";
import { toolErrorText } from "./error-text.js";
import { sandboxMounts } from "./path-guard.js";
import { readAccessError } from "./read-access.js";
import { READ_FILE_DESCRIPTION } from "./tool-descriptions.js";
import { resolveToolContext, type SandboxToolsOptions, type ToolContext } from "./tool-options.js";
import { READ_FILE_SCHEMA, intArg, stringArg } from "./tool-schemas.js";
import { truncateReadFileOutput } from "./truncation.js";

/**
 * DeerFlow's message for a file that is not UTF-8 text.
 *
 * @param path - The requested path.
 * @returns The `Error: …` text.
 */
export function binaryFileMessage(path: string): string {
  return (
    `Error: cannot read '${path}' as text — it appears to be a binary file ` +
    "(e.g. .xlsx, .pdf, or an image). read_file only supports UTF-8 text. Use bash with a " +
    "suitable library instead (pandas/openpyxl for spreadsheets), or view_image for images."
  );
}

/** The range check messages, in DeerFlow's order, or null when the range is usable. */
function rangeMessage(start: number | undefined, end: number | undefined): string | null {
  if (start !== undefined && start < 1) return "(start_line must be >= 1)";
  if (end !== undefined && end < 1) return "(end_line must be >= 1)";
  if (end !== undefined && (start ?? 1) > end) return "(start_line > end_line — no lines in range)";
  return null;
}

/**
 * True when the text is not really UTF-8 text: it has a NUL, or it has U+FFFD
 * that the file's bytes do not (the sandbox replaced undecodable bytes).
 */
async function looksBinary(sandbox: Sandbox, path: string, content: string): Promise<boolean> {
  if (content.includes("\u0000")) return true;
  if (!content.includes("\uFFFD")) return false;
  let bytes: Uint8Array;
  try {
    bytes = await sandbox.readBytes(path);
  } catch {
    return false; // cannot verify (too large, gone): show the text as the sandbox decoded it
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/**
 * Runs one `read_file` call. Order: traversal and blocked-path checks → range
 * checks (`(start_line must be >= 1)`, `(end_line must be >= 1)`,
 * `(start_line > end_line — no lines in range)`) → read → `(start_line exceeds
 * file length)` / `(empty)` → binary check → head truncation to
 * `readFileOutputMaxChars`. Errors: `Error: File not found: {p}`,
 * `Error: Permission denied reading file: {p}`, `Error: Path is a directory, not
 * a file: {p}`, the binary message, `Error: Unexpected error reading file: …`.
 *
 * @param ctx - The tool context.
 * @param args - `{ path, start_line?, end_line? }`.
 * @param config - The tool call's config.
 * @returns The text, or a message.
 */
async function runReadFile(ctx: ToolContext, args: ToolArgs, config: ToolRunnableConfig | undefined): Promise<string> {
  const path = stringArg(args, "path");
  const start = intArg(args, "start_line");
  const end = intArg(args, "end_line");
  const refused = await readAccessError(ctx, path, config);
  if (refused !== null) return refused;
  const badRange = rangeMessage(start, end);
  if (badRange !== null) return badRange;
  const sandbox = await acquireSandbox(ctx, config);
  if (typeof sandbox === "string") return sandbox;
  try {
    const ranged = start !== undefined || end !== undefined;
    const range = {
      ...(start !== undefined ? { startLine: start } : {}),
      ...(end !== undefined ? { endLine: end } : {}),
    };
    const content = ranged ? await sandbox.readFile(path, range) : await sandbox.readFile(path);
    if (content === "") return start !== undefined && start > 1 ? "(start_line exceeds file length)" : "(empty)";
    if (await looksBinary(sandbox, path, content)) return binaryFileMessage(path);
    return truncateReadFileOutput(content, ctx.readFileOutputMaxChars);
  } catch (err) {
    return toolErrorText("read_file", err, path, sandboxMounts(sandbox));
  }
}

/**
 * Creates the `read_file` tool alone.
 *
 * @param options - See {@link SandboxToolsOptions}.
 * @returns The LangChain tool.
 * @throws SandboxError `CONFIG_INVALID` for bad options.
 */
export function createReadFileTool(options: SandboxToolsOptions): SandboxTool<"read_file"> {
  return readFileToolFor(resolveToolContext(options));
}

/**
 * The `read_file` tool over an already resolved context.
 *
 * @param ctx - Shared by the tools of one set.
 * @returns The LangChain tool.
 */
export function readFileToolFor(ctx: ToolContext): SandboxTool<"read_file"> {
  return defineSandboxTool("read_file", READ_FILE_DESCRIPTION, READ_FILE_SCHEMA, (args, config) =>
    runReadFile(ctx, args, config),
  );
}
