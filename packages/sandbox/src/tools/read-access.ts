/**
 * The checks every read tool (ls, glob, grep, read_file) makes on the
 * requested path before touching the sandbox.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { blockedReason } from "./blocked-paths.js";
import { PATH_TRAVERSAL_MESSAGE, hasTraversal } from "./path-guard.js";
import type { ToolContext } from "./tool-options.js";

/**
 * `Error: Access denied: path traversal detected` for a `..` segment, then
 * `Error: {hook text}` when the blocked-path hook refuses the path (disabled
 * skills; a failing hook refuses too), else null.
 *
 * @param ctx - The tool context.
 * @param path - The requested virtual path.
 * @param config - The tool call's config.
 * @returns The refusal text, or null to proceed.
 */
export async function readAccessError(
  ctx: ToolContext,
  path: string,
  config: ToolRunnableConfig | undefined,
): Promise<string | null> {
  if (hasTraversal(path)) return `Error: ${PATH_TRAVERSAL_MESSAGE}`;
  const normalized = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  const reason = await blockedReason(ctx.isPathBlocked, normalized, config, ctx.logger);
  return reason === null ? null : `Error: ${reason}`;
}
