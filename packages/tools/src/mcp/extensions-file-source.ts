/**
 * `extensions_config.json` as an {@link McpConfigSource}: its signature is
 * DeerFlow's `(mtime, size, sha256)`, compared with `!=` so a same-second edit
 * and an mtime moving backwards both count; a file deleted after a load gives
 * no signature, so the last loaded servers stay.
 */
import { createHash } from "node:crypto";
import type { BigIntStats } from "node:fs";
import fs from "node:fs/promises";
import { SETTLED_FILE_MS, settledFile } from "@deerflow/kernel";
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
    return signatureOf(bytes, stat);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

const signatureOf = (bytes: Buffer, stat: BigIntStats): string =>
  `${stat.mtimeNs}:${stat.size}:${createHash("sha256").update(bytes).digest("hex")}`;

/**
 * How long before a read the file must have last changed for its stat to vouch
 * for its content: a write in the same timestamp tick as the read (2 s on the
 * coarsest file systems) could leave the stat as it was (git's "racily clean").
 */
export const SIGNATURE_SETTLED_MS = SETTLED_FILE_MS;

/** Options of {@link fileSignatureReader}. */
export interface FileSignatureReaderOptions {
  /** Clock in ms (default `Date.now`); tests move it. */
  readonly now?: () => number;
}

/**
 * {@link fileSignature} for one file, asked often (the MCP toolset asks before
 * every model call): the content is read and hashed again only when the stat
 * changed (device, inode, mtime, ctime, size) or the last read came within
 * {@link SIGNATURE_SETTLED_MS} of the file's last change; otherwise one `stat`
 * answers, and a missing file is told by one `stat` of its folder. Same
 * signatures as {@link fileSignature}.
 *
 * @param filePath - the file
 * @param options - the clock
 * @returns a function giving the file's current signature, `undefined` while it is missing
 * @example
 * ```ts
 * const signature = fileSignatureReader("./extensions_config.json");
 * const source = { signature, load: async () => ({}) };
 * ```
 */
export function fileSignatureReader(
  filePath: string,
  options: FileSignatureReaderOptions = {},
): () => Promise<string | undefined> {
  return settledFile(filePath, signatureOf, options);
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
    signature: fileSignatureReader(filePath),
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
