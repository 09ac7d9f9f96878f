/**
 * The `glob` tool: paths matching a pattern under a root.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { DEFAULT_GLOB_RESULTS } from "../limits.js";
import { dropBlocked } from "./blocked-paths.js";
import { acquireSandbox, defineSandboxTool, type SandboxTool, type ToolArgs } from "./define-tool.js";
import { toolErrorText } from "./error-text.js";
import { sandboxMounts } from "./path-guard.js";
import { readAccessError } from "./read-access.js";
import { effectiveMaxResults, formatGlobResults } from "./search-results.js";
import { GLOB_DESCRIPTION } from "./tool-descriptions.js";
import { resolveToolContext, type SandboxToolsOptions, type ToolContext } from "./tool-options.js";
import { GLOB_SCHEMA, boolArg, intArg, stringArg } from "./tool-schemas.js";

/**
 * Runs one `glob` call with at most min(`max_results`, `globMaxResults`)
 * results (≤0 → 200, cap 1000), blocked paths removed, formatted by
 * {@link formatGlobResults}. Errors as `ls`, plus `Error: Unexpected error searching paths: …`.
 *
 * @param ctx - The tool context.
 * @param args - `{ pattern, path, include_dirs?, max_results? }`.
 * @param config - The tool call's config.
 * @returns The result text, or `Error: …`.
 */
async function runGlob(ctx: ToolContext, args: ToolArgs, config: ToolRunnableConfig | undefined): Promise<string> {
  const path = stringArg(args, "path");
  const refused = await readAccessError(ctx, path, config);
  if (refused !== null) return refused;
  const sandbox = await acquireSandbox(ctx, config);
  if (typeof sandbox === "string") return sandbox;
  try {
    const maxResults = effectiveMaxResults(
      intArg(args, "max_results") ?? DEFAULT_GLOB_RESULTS,
      ctx.globMaxResults,
      "glob",
    );
    const result = await sandbox.glob(path, stringArg(args, "pattern"), {
      includeDirs: boolArg(args, "include_dirs"),
      maxResults,
    });
    const kept = await dropBlocked(ctx.isPathBlocked, result.matches, (p) => p, config, ctx.logger);
    return formatGlobResults(path, kept, result.truncated);
  } catch (err) {
    return toolErrorText("glob", err, path, sandboxMounts(sandbox));
  }
}

/**
 * Creates the `glob` tool alone.
 *
 * @param options - See {@link SandboxToolsOptions}.
 * @returns The LangChain tool.
 * @throws SandboxError `CONFIG_INVALID` for bad options.
 */
export function createGlobTool(options: SandboxToolsOptions): SandboxTool<"glob"> {
  return globToolFor(resolveToolContext(options));
}

/**
 * The `glob` tool over an already resolved context.
 *
 * @param ctx - Shared by the tools of one set.
 * @returns The LangChain tool.
 */
export function globToolFor(ctx: ToolContext): SandboxTool<"glob"> {
  return defineSandboxTool("glob", GLOB_DESCRIPTION, GLOB_SCHEMA, (args, config) => runGlob(ctx, args, config));
}
