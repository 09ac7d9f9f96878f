/**
 * The `bash` tool: runs a command in the sandbox's workspace and returns
 * DeerFlow's output text.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { WORKSPACE_PATH } from "../limits.js";
import { formatExecuteResult, redactSecrets } from "./bash-output.js";
import { acquireSandbox, defineSandboxTool, type SandboxTool, type ToolArgs } from "./define-tool.js";
import { toolErrorText } from "./error-text.js";
import { findHostCommandViolation } from "./host-command-policy.js";
import { sandboxMounts } from "./path-guard.js";
import { BASH_DESCRIPTION } from "./tool-descriptions.js";
import { isIsolated, resolveToolContext, type SandboxToolsOptions, type ToolContext } from "./tool-options.js";
import { BASH_SCHEMA, stringArg } from "./tool-schemas.js";
import { truncateBashOutput } from "./truncation.js";

/**
 * Runs one `bash` call. Steps: resolve the sandbox → on a non-isolated sandbox
 * with `hostBashPolicy: "validate"`, refuse commands that fail
 * {@link findHostCommandViolation} (`Error: {message}`) → execute in
 * `/mnt/user-data/workspace` with the configured timeout, the call's secrets as
 * environment and the call's abort signal → assemble stdout/stderr/timeout/exit
 * code → redact secrets → middle-truncate.
 *
 * @param ctx - The tool context.
 * @param args - `{ command }`.
 * @param config - The tool call's config.
 * @returns The output text, or `Error: …`.
 */
async function runBash(ctx: ToolContext, args: ToolArgs, config: ToolRunnableConfig | undefined): Promise<string> {
  const command = stringArg(args, "command");
  const sandbox = await acquireSandbox(ctx, config);
  if (typeof sandbox === "string") return sandbox;
  const mounts = sandboxMounts(sandbox);
  try {
    if (ctx.hostBashPolicy === "validate" && !isIsolated(ctx, sandbox)) {
      const allowedPaths = [...ctx.hostCommandAllowedPaths, ...mounts.map((m) => m.virtualPath)];
      const violation = findHostCommandViolation(command, { allowedPaths });
      if (violation !== null) return `Error: ${violation}`;
    }
    const secrets = await ctx.secretsFor(config);
    const hasSecrets = secrets !== undefined && Object.keys(secrets).length > 0;
    const result = await sandbox.execute(command, {
      timeoutMs: ctx.bashTimeoutMs,
      cwd: WORKSPACE_PATH,
      ...(hasSecrets ? { env: secrets } : {}),
      ...(config?.signal !== undefined ? { signal: config.signal } : {}),
    });
    const output = redactSecrets(formatExecuteResult(result, ctx.bashTimeoutMs), secrets);
    return truncateBashOutput(output, ctx.bashOutputMaxChars);
  } catch (err) {
    return toolErrorText("bash", err, "", mounts);
  }
}

/**
 * Creates the `bash` tool alone.
 *
 * @param options - See {@link SandboxToolsOptions}.
 * @returns The LangChain tool.
 * @throws SandboxError `CONFIG_INVALID` for bad options.
 */
export function createBashTool(options: SandboxToolsOptions): SandboxTool<"bash"> {
  return bashToolFor(resolveToolContext(options));
}

/**
 * The `bash` tool over an already resolved context.
 *
 * @param ctx - Shared by the tools of one set.
 * @returns The LangChain tool.
 */
export function bashToolFor(ctx: ToolContext): SandboxTool<"bash"> {
  return defineSandboxTool("bash", BASH_DESCRIPTION, BASH_SCHEMA, (args, config) => runBash(ctx, args, config));
}
