/**
 * The server's MCP config source: `extensions_config.json` validated by the
 * server's own reader (`loadExtensionsConfig`, the shape checks and `$VAR`
 * rules it applies at startup), then read into `@deerflow/tools` specs (which
 * keep the keys the server does not model: `oauth`, timeouts, `tool_name_prefix`).
 */
import fs from "node:fs/promises";
import { fileSignature, parseMcpServers, type McpConfigSource, type McpServerSpec } from "@deerflow/tools";
import { loadExtensionsConfig } from "../config/extensions-config.js";

/**
 * @param filePath - the server's `extensions_config.json` (may not exist)
 * @param env - environment for `$VAR` values
 * @returns the source; `load` throws the server's `ServerConfigError` for an invalid file
 */
export function serverMcpSource(filePath: string, env: NodeJS.ProcessEnv): McpConfigSource {
  return {
    signature: () => fileSignature(filePath),
    async load(): Promise<Record<string, McpServerSpec>> {
      const checked = await loadExtensionsConfig(filePath, env);
      if (!checked.exists) return {};
      const text = await fs.readFile(filePath, "utf8");
      const data = text.trim() === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
      return parseMcpServers(data["mcpServers"], env);
    },
  };
}
