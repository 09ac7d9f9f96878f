/**
 * The checks write_file and str_replace make before touching the sandbox.
 */
import type { Sandbox } from "../sandbox.js";
import {
  PATH_TRAVERSAL_MESSAGE,
  hasTraversal,
  sandboxMounts,
  writeProtectionMessage,
  type ReadOnlyRoot,
} from "./path-guard.js";
import type { ToolContext } from "./tool-options.js";

/**
 * The read-only trees known for a sandbox: its own mounts (when it exposes
 * them) and the configured `readOnlyPaths`.
 *
 * @param ctx - The tool context.
 * @param sandbox - The call's sandbox.
 * @returns Roots for {@link writeProtectionMessage}.
 */
function readOnlyRoots(ctx: ToolContext, sandbox: Sandbox): ReadOnlyRoot[] {
  return [...sandboxMounts(sandbox), ...ctx.readOnlyPaths.map((virtualPath) => ({ virtualPath, readOnly: true }))];
}

/**
 * `Error: Access denied: path traversal detected` for a `..` segment; DeerFlow's
 * write-protection text for `/mnt/skills`, `/mnt/acp-workspace` and read-only
 * mounts (`Error: Write access to skills path is not allowed: {p}` …); else null.
 *
 * @param ctx - The tool context.
 * @param sandbox - The call's sandbox, or undefined to check traversal only.
 * @param path - The requested virtual path.
 * @returns The refusal text, or null to proceed.
 */
export function writeAccessError(ctx: ToolContext, sandbox: Sandbox | undefined, path: string): string | null {
  if (hasTraversal(path)) return `Error: ${PATH_TRAVERSAL_MESSAGE}`;
  if (sandbox === undefined) return null;
  const protectedBy = writeProtectionMessage(path, readOnlyRoots(ctx, sandbox));
  return protectedBy === null ? null : `Error: ${protectedBy}`;
}
