/**
 * `extensions_config.json` as an {@link McpConfigSource}: its signature is
 * DeerFlow's `(mtime, size, sha256)`, compared with `!=` so a same-second edit
 * and an mtime moving backwards both count; a file deleted after a load gives
 * no signature, so the last loaded servers stay.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import type { McpConfigSource } from "./config-source.js";
import { McpError } from "./errors.js";
import { parseMcpServers } from "./parse-mcp-servers.js";
import type { McpServerSpec } from "./server-spec.js";

/**
 * The signature of a file.
 *
 * @param filePath - the file
 * @returns `mtimeNs:size:sha256`, or `undefined` when the file is missing
 */
export async function fileSignature(filePath: string): Promise<string | undefined> {
  try {
    const [stat, bytes] = await Promise.all([fs.stat(filePath, { bigint: true }), fs.readFile(filePath)]);
    return `${stat.mtimeNs}:${stat.size}:${createHash("sha256").update(bytes).digest("hex")}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/**
 * Reads `mcpServers` from an `extensions_config.json`.
 *
 * @param filePath - the file (a missing file means no servers)
 * @param env - environment for `$VAR` values (default `process.env`)
 * @returns the source
 * @example
 * ```ts
 * const toolset = new McpToolset({ source: extensionsFileMcpSource("./extensions_config.json") });
 * ```
 */
export function extensionsFileMcpSource(filePath: string, env: NodeJS.ProcessEnv = process.env): McpConfigSource {
  return {
    signature: () => fileSignature(filePath),
    async load(): Promise<Record<string, McpServerSpec>> {
      let text: string;
      try {
        text = await fs.readFile(filePath, "utf8");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
        throw err;
      }
      let data: unknown;
      try {
        data = text.trim() === "" ? {} : JSON.parse(text);
      } catch (err) {
        throw new McpError("MCP_CONFIG_INVALID", `${filePath}: invalid JSON: ${(err as Error).message}`, {
          cause: err,
        });
      }
      return parseMcpServers((data as Record<string, unknown> | null)?.["mcpServers"], env);
    },
  };
}
