/**
 * The `write_file` tool: writes or appends UTF-8 text.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { acquireSandbox, defineSandboxTool, type SandboxTool, type ToolArgs } from "./define-tool.js";
import { toolErrorText } from "./error-text.js";
import { fileLockKey } from "./keyed-lock.js";
import { sandboxMounts } from "./path-guard.js";
import { writeFileDescription } from "./tool-descriptions.js";
import { resolveToolContext, type SandboxToolsOptions, type ToolContext } from "./tool-options.js";
import { WRITE_FILE_SCHEMA, boolArg, stringArg } from "./tool-schemas.js";
import { truncateWriteFileError } from "./truncation.js";
import { writeAccessError } from "./write-access.js";

/**
 * DeerFlow's size-policy refusal (pointing at our tool description instead of
 * DeerFlow's issue number).
 *
 * @param bytes - The content's UTF-8 size.
 * @param maxBytes - The limit.
 * @returns The `Error: …` text.
 */
export function writeFileTooLargeMessage(bytes: number, maxBytes: number): string {
  return (
    `Error: write_file content (${bytes} bytes) exceeds the ${maxBytes}-byte single-call limit. ` +
    "Split the content into smaller pieces: either (a) write the first section now, then use `str_replace` " +
    "for further edits, or (b) call write_file again with append=True carrying the next section. " +
    "See SIZE POLICY in the tool docstring for the rationale."
  );
}

/**
 * Runs one `write_file` call. Order: size policy (non-append content over
 * `writeFileMaxBytes` UTF-8 bytes) → traversal → sandbox → write protection →
 * the write, under the per-(sandbox id, path) lock shared with `str_replace`.
 * Returns `OK`. Errors are bounded to 2000 characters:
 * `Error: Permission denied writing to file: {p}`, `Error: Path is a directory,
 * not a file: {p}`, `Error: Failed to write file '{p}': {Type}: {msg}`.
 *
 * @param ctx - The tool context.
 * @param args - `{ path, content, append? }`.
 * @param config - The tool call's config.
 * @returns `OK`, or `Error: …`.
 */
async function runWriteFile(ctx: ToolContext, args: ToolArgs, config: ToolRunnableConfig | undefined): Promise<string> {
  const path = stringArg(args, "path");
  const content = stringArg(args, "content");
  const append = boolArg(args, "append");
  if (!append && ctx.writeFileMaxBytes > 0) {
    const bytes = Buffer.byteLength(content, "utf8");
    if (bytes > ctx.writeFileMaxBytes) return writeFileTooLargeMessage(bytes, ctx.writeFileMaxBytes);
  }
  const traversal = writeAccessError(ctx, undefined, path);
  if (traversal !== null) return truncateWriteFileError(traversal);
  const sandbox = await acquireSandbox(ctx, config);
  if (typeof sandbox === "string") return truncateWriteFileError(sandbox);
  const refused = writeAccessError(ctx, sandbox, path);
  if (refused !== null) return truncateWriteFileError(refused);
  try {
    await ctx.fileLock.run(fileLockKey(sandbox.id, path), () =>
      sandbox.writeFile(path, content, append ? { append } : undefined),
    );
    return "OK";
  } catch (err) {
    return toolErrorText("write_file", err, path, sandboxMounts(sandbox));
  }
}

/**
 * Creates the `write_file` tool alone.
 *
 * @param options - See {@link SandboxToolsOptions}.
 * @returns The LangChain tool.
 * @throws SandboxError `CONFIG_INVALID` for bad options.
 */
export function createWriteFileTool(options: SandboxToolsOptions): SandboxTool<"write_file"> {
  return writeFileToolFor(resolveToolContext(options));
}

/**
 * The `write_file` tool over an already resolved context.
 *
 * @param ctx - Shared by the tools of one set.
 * @returns The LangChain tool.
 */
export function writeFileToolFor(ctx: ToolContext): SandboxTool<"write_file"> {
  return defineSandboxTool(
    "write_file",
    writeFileDescription(ctx.writeFileMaxBytes),
    WRITE_FILE_SCHEMA,
    (args, config) => runWriteFile(ctx, args, config),
  );
}
