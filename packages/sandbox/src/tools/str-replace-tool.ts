/**
 * The `str_replace` tool: a literal substring replacement, read-modify-write
 * under the per-(sandbox id, path) lock.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { acquireSandbox, defineSandboxTool, type SandboxTool, type ToolArgs } from "./define-tool.js";
import { toolErrorText } from "./error-text.js";
import { fileLockKey } from "./keyed-lock.js";
import { sandboxMounts } from "./path-guard.js";
import { STR_REPLACE_DESCRIPTION } from "./tool-descriptions.js";
import { resolveToolContext, type SandboxToolsOptions, type ToolContext } from "./tool-options.js";
import { STR_REPLACE_SCHEMA, boolArg, stringArg } from "./tool-schemas.js";
import { writeAccessError } from "./write-access.js";

/**
 * Non-overlapping occurrences of `needle` (as Python's `str.count`).
 *
 * @param haystack - The text.
 * @param needle - A non-empty string.
 * @returns How many times it occurs.
 */
export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/**
 * Runs one `str_replace` call. An empty `old_str` is a no-op (`OK`, once the
 * file is known to exist). Unlike DeerFlow, which silently replaces the first
 * of several occurrences, a non-unique `old_str` is refused unless
 * `replace_all` is true: `Error: String to replace appears {n} times in {p}.
 * Provide more context to make it unique, or set replace_all to true.` The
 * replacement is literal (`$&` stays `$&`). The read and the write happen under
 * the lock shared with `write_file`, so concurrent edits of one file all land.
 *
 * @param ctx - The tool context.
 * @param args - `{ path, old_str, new_str, replace_all? }`.
 * @param config - The tool call's config.
 * @returns `OK`, or `Error: …`.
 */
async function runStrReplace(
  ctx: ToolContext,
  args: ToolArgs,
  config: ToolRunnableConfig | undefined,
): Promise<string> {
  const path = stringArg(args, "path");
  const oldStr = stringArg(args, "old_str");
  const newStr = stringArg(args, "new_str");
  const replaceAll = boolArg(args, "replace_all");
  const traversal = writeAccessError(ctx, undefined, path);
  if (traversal !== null) return traversal;
  const sandbox = await acquireSandbox(ctx, config);
  if (typeof sandbox === "string") return sandbox;
  const refused = writeAccessError(ctx, sandbox, path);
  if (refused !== null) return refused;
  try {
    return await ctx.fileLock.run(fileLockKey(sandbox.id, path), async () => {
      const content = await sandbox.readFile(path);
      if (oldStr === "") return "OK";
      const occurrences = countOccurrences(content, oldStr);
      if (occurrences === 0) return `Error: String to replace not found in file: ${path}`;
      if (occurrences > 1 && !replaceAll) {
        return `Error: String to replace appears ${occurrences} times in ${path}. Provide more context to make it unique, or set replace_all to true.`;
      }
      const at = content.indexOf(oldStr);
      const updated = replaceAll
        ? content.split(oldStr).join(newStr)
        : content.slice(0, at) + newStr + content.slice(at + oldStr.length);
      await sandbox.writeFile(path, updated);
      return "OK";
    });
  } catch (err) {
    return toolErrorText("str_replace", err, path, sandboxMounts(sandbox));
  }
}

/**
 * Creates the `str_replace` tool alone.
 *
 * @param options - See {@link SandboxToolsOptions}.
 * @returns The LangChain tool.
 * @throws SandboxError `CONFIG_INVALID` for bad options.
 */
export function createStrReplaceTool(options: SandboxToolsOptions): SandboxTool<"str_replace"> {
  return strReplaceToolFor(resolveToolContext(options));
}

/**
 * The `str_replace` tool over an already resolved context.
 *
 * @param ctx - Shared by the tools of one set.
 * @returns The LangChain tool.
 */
export function strReplaceToolFor(ctx: ToolContext): SandboxTool<"str_replace"> {
  return defineSandboxTool("str_replace", STR_REPLACE_DESCRIPTION, STR_REPLACE_SCHEMA, (args, config) =>
    runStrReplace(ctx, args, config),
  );
}
