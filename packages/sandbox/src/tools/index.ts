/**
 * Public surface of the sandbox tools (re-exported by the package entry).
 */
export { createSandboxTools, type SandboxTools } from "./create-sandbox-tools.js";
export { createBashTool } from "./bash-tool.js";
export { createLsTool } from "./ls-tool.js";
export { createGlobTool } from "./glob-tool.js";
export { createGrepTool } from "./grep-tool.js";
export { createReadFileTool } from "./read-file-tool.js";
export { createWriteFileTool } from "./write-file-tool.js";
export { createStrReplaceTool } from "./str-replace-tool.js";
export type { SandboxTool } from "./define-tool.js";
export { SANDBOX_TOOL_DEFAULTS, type SandboxToolsOptions, type SecretsSource } from "./tool-options.js";
export { SANDBOX_TOOL_NAMES, type SandboxToolName } from "./tool-schemas.js";
export type { PathBlockedHook } from "./blocked-paths.js";
export { KeyedLock, sharedFileLock, fileLockKey } from "./keyed-lock.js";
export {
  findHostCommandViolation,
  HOST_SYSTEM_PATH_PREFIXES,
  type HostCommandPolicyOptions,
} from "./host-command-policy.js";
