/**
 * The `ls` tool: a directory listing two levels deep.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { dropBlocked } from "./blocked-paths.js";
import { acquireSandbox, defineSandboxTool, type SandboxTool, type ToolArgs } from "./define-tool.js";
import { toolErrorText } from "./error-text.js";
import { sandboxMounts } from "./path-guard.js";
import { readAccessError } from "./read-access.js";
import { LS_DESCRIPTION } from "./tool-descriptions.js";
import { resolveToolContext, type SandboxToolsOptions, type ToolContext } from "./tool-options.js";
import { LS_SCHEMA, stringArg } from "./tool-schemas.js";
import { truncateLsOutput } from "./truncation.js";

/**
 * Runs one `ls` call: newline-separated virtual paths (directories end with
 * `/`), entries under blocked paths removed, `(empty)` when nothing is left,
 * head-truncated to `lsOutputMaxChars`. Errors: `Error: Directory not found: {p}`,
 * `Error: Path is not a directory: {p}`, `Error: Permission denied: {p}`,
 * `Error: Unexpected error listing directory: …`.
 *
 * @param ctx - The tool context.
 * @param args - `{ path }`.
 * @param config - The tool call's config.
 * @returns The listing, or `Error: …`.
 */
async function runLs(ctx: ToolContext, args: ToolArgs, config: ToolRunnableConfig | undefined): Promise<string> {
  const path = stringArg(args, "path");
  const refused = await readAccessError(ctx, path, config);
  if (refused !== null) return refused;
  const sandbox = await acquireSandbox(ctx, config);
  if (typeof sandbox === "string") return sandbox;
  try {
    const entries = await sandbox.listDir(path);
    const kept = await dropBlocked(ctx.isPathBlocked, entries, (entry) => entry, config, ctx.logger);
    if (kept.length === 0) return "(empty)";
    return truncateLsOutput(kept.join("\n"), ctx.lsOutputMaxChars);
  } catch (err) {
    return toolErrorText("ls", err, path, sandboxMounts(sandbox));
  }
}

/**
 * Creates the `ls` tool alone.
 *
 * @param options - See {@link SandboxToolsOptions}.
 * @returns The LangChain tool.
 * @throws SandboxError `CONFIG_INVALID` for bad options.
 */
export function createLsTool(options: SandboxToolsOptions): SandboxTool<"ls"> {
  return lsToolFor(resolveToolContext(options));
}

/**
 * The `ls` tool over an already resolved context.
 *
 * @param ctx - Shared by the tools of one set.
 * @returns The LangChain tool.
 */
export function lsToolFor(ctx: ToolContext): SandboxTool<"ls"> {
  return defineSandboxTool("ls", LS_DESCRIPTION, LS_SCHEMA, (args, config) => runLs(ctx, args, config));
}
