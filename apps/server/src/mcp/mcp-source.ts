/**
 * The server's MCP config source: `extensions_config.json` validated by the
 * server's own reader (`loadExtensionsConfig`, the shape checks and `$VAR`
 * rules it applies at startup), then read into `@deerflow/tools` specs (which
 * keep the keys the server does not model: `oauth`, timeouts, `tool_name_prefix`).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { threadUserDataDir } from "@deerflow/sandbox";
import {
  fileSignatureReader,
  parseMcpServers,
  type McpConfigSource,
  type McpServerSpec,
  type McpSessionScope,
} from "@deerflow/tools";
import { loadExtensionsConfig } from "../config/extensions-config.js";

/**
 * @param filePath - the server's `extensions_config.json` (may not exist)
 * @param env - environment for `$VAR` values
 * @returns the source; `load` throws the server's `ServerConfigError` for an invalid file
 */
export function serverMcpSource(filePath: string, env: NodeJS.ProcessEnv): McpConfigSource {
  return {
    // Asked before every model call: a settled file is answered from its stat.
    signature: fileSignatureReader(filePath),
    async load(): Promise<Record<string, McpServerSpec>> {
      const checked = await loadExtensionsConfig(filePath, env);
      if (!checked.exists) return {};
      const text = await fs.readFile(filePath, "utf8");
      const data = text.trim() === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
      return parseMcpServers(data["mcpServers"], env);
    },
  };
}

const SEGMENT = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * DeerFlow pins a thread's stdio MCP sessions inside its user data: `<thread user-data>/.mcp/tmp`
 * (cwd and TMPDIR). Ids that are not single safe path segments get no folder (the server's own).
 *
 * @param dataDir - `storage.data_dir` (the local sandbox's base folder)
 * @returns the toolset's `stdioWorkDir`
 */
export function threadMcpWorkDir(dataDir: string): (scope: McpSessionScope) => string | undefined {
  return ({ threadId, userId }) => {
    const user = userId ?? "default";
    if (![threadId, user].every((s) => SEGMENT.test(s) && s !== "." && s !== "..")) return undefined;
    return path.join(threadUserDataDir(dataDir, { userId: user, threadId }), ".mcp", "tmp");
  };
}
