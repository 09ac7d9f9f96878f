/**
 * The seven sandbox tools as one set sharing one context.
 */
import { bashToolFor } from "./bash-tool.js";
import type { SandboxTool } from "./define-tool.js";
import { globToolFor } from "./glob-tool.js";
import { grepToolFor } from "./grep-tool.js";
import { lsToolFor } from "./ls-tool.js";
import { readFileToolFor } from "./read-file-tool.js";
import { strReplaceToolFor } from "./str-replace-tool.js";
import { resolveToolContext, type SandboxToolsOptions } from "./tool-options.js";
import { writeFileToolFor } from "./write-file-tool.js";

/** The tools returned by {@link createSandboxTools}, in DeerFlow's order. */
export type SandboxTools = readonly [
  SandboxTool<"bash">,
  SandboxTool<"ls">,
  SandboxTool<"glob">,
  SandboxTool<"grep">,
  SandboxTool<"read_file">,
  SandboxTool<"write_file">,
  SandboxTool<"str_replace">,
];

/**
 * Creates DeerFlow's sandbox tools — `bash`, `ls`, `glob`, `grep`, `read_file`,
 * `write_file`, `str_replace` — with its names, parameters, defaults and
 * output texts. Tools never throw for expected failures: the model receives
 * `Error: …` text.
 *
 * Deliberate differences from DeerFlow: `str_replace` requires a unique match
 * unless `replace_all`; `..`, skills and read-only-mount refusals name the
 * reason (`Error: Access denied: path traversal detected`, `Error: Write access
 * to skills path is not allowed: {p}`) instead of a generic "Permission denied";
 * a `description` argument is accepted first but optional.
 *
 * @param options - The sandbox (fixed, or resolved per call) and limits.
 * @returns The seven tools, in that order.
 * @throws SandboxError `CONFIG_INVALID` when neither or both of `sandbox`/`getSandbox` are given, or a limit is negative.
 * @example
 * ```ts
 * const tools = createSandboxTools({
 *   getSandbox: (config) => provider.acquire(String(config?.configurable?.thread_id)),
 *   isPathBlocked: async (path) => (isDisabledSkillPath(path) ? `Skill '${name}' is disabled. …` : null),
 * });
 * const agent = createAgent({ model, tools: [...tools] });
 * ```
 */
export function createSandboxTools(options: SandboxToolsOptions): SandboxTools {
  const ctx = resolveToolContext(options);
  return [
    bashToolFor(ctx),
    lsToolFor(ctx),
    globToolFor(ctx),
    grepToolFor(ctx),
    readFileToolFor(ctx),
    writeFileToolFor(ctx),
    strReplaceToolFor(ctx),
  ];
}
