/**
 * The `grep` tool: matching lines in a file or under a root.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { DEFAULT_GREP_RESULTS } from "../limits.js";
import { dropBlocked } from "./blocked-paths.js";
import { acquireSandbox, defineSandboxTool, type SandboxTool, type ToolArgs } from "./define-tool.js";
import { toolErrorText } from "./error-text.js";
import { sandboxMounts } from "./path-guard.js";
import { readAccessError } from "./read-access.js";
import { effectiveMaxResults, formatGrepResults } from "./search-results.js";
import { GREP_DESCRIPTION } from "./tool-descriptions.js";
import { resolveToolContext, type SandboxToolsOptions, type ToolContext } from "./tool-options.js";
import { GREP_SCHEMA, boolArg, intArg, stringArg } from "./tool-schemas.js";

/**
 * The JavaScript regex error for an invalid pattern, or null. Checked here so
 * the model gets `Error: Invalid regex pattern: …` whatever the sandbox does.
 */
function regexError(pattern: string, caseSensitive: boolean): string | null {
  try {
    new RegExp(pattern, caseSensitive ? "" : "i");
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Runs one `grep` call (case-insensitive unless `case_sensitive`; `literal`
 * escapes the pattern) with at most min(`max_results`, `grepMaxResults`)
 * matches (≤0 → 100, cap 500), matches in blocked files removed, formatted by
 * {@link formatGrepResults}. Errors as `glob`, plus `Error: Invalid regex pattern: {e}`.
 *
 * @param ctx - The tool context.
 * @param args - `{ pattern, path, glob?, literal?, case_sensitive?, max_results? }`.
 * @param config - The tool call's config.
 * @returns The result text, or `Error: …`.
 */
async function runGrep(ctx: ToolContext, args: ToolArgs, config: ToolRunnableConfig | undefined): Promise<string> {
  const path = stringArg(args, "path");
  const pattern = stringArg(args, "pattern");
  const literal = boolArg(args, "literal");
  const caseSensitive = boolArg(args, "case_sensitive");
  const refused = await readAccessError(ctx, path, config);
  if (refused !== null) return refused;
  if (!literal) {
    const invalid = regexError(pattern, caseSensitive);
    if (invalid !== null) return `Error: Invalid regex pattern: ${invalid}`;
  }
  const sandbox = await acquireSandbox(ctx, config);
  if (typeof sandbox === "string") return sandbox;
  try {
    const maxResults = effectiveMaxResults(
      intArg(args, "max_results") ?? DEFAULT_GREP_RESULTS,
      ctx.grepMaxResults,
      "grep",
    );
    const fileGlob = stringArg(args, "glob");
    const result = await sandbox.grep(path, pattern, {
      literal,
      caseSensitive,
      maxResults,
      ...(fileGlob !== "" ? { glob: fileGlob } : {}),
    });
    const kept = await dropBlocked(ctx.isPathBlocked, result.matches, (m) => m.path, config, ctx.logger);
    return formatGrepResults(path, kept, result.truncated);
  } catch (err) {
    return toolErrorText("grep", err, path, sandboxMounts(sandbox));
  }
}

/**
 * Creates the `grep` tool alone.
 *
 * @param options - See {@link SandboxToolsOptions}.
 * @returns The LangChain tool.
 * @throws SandboxError `CONFIG_INVALID` for bad options.
 */
export function createGrepTool(options: SandboxToolsOptions): SandboxTool<"grep"> {
  return grepToolFor(resolveToolContext(options));
}

/**
 * The `grep` tool over an already resolved context.
 *
 * @param ctx - Shared by the tools of one set.
 * @returns The LangChain tool.
 */
export function grepToolFor(ctx: ToolContext): SandboxTool<"grep"> {
  return defineSandboxTool("grep", GREP_DESCRIPTION, GREP_SCHEMA, (args, config) => runGrep(ctx, args, config));
}
