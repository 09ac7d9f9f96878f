import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { extensionsFileMcpSource, staticMcpSource } from "../../src/mcp/index.js";
import { mcpConfigSourceConformance } from "../../src/testing/index.js";

const dir = await fs.mkdtemp(path.join(os.tmpdir(), "mcp-source-kit-"));
afterAll(() => fs.rm(dir, { recursive: true, force: true }));
let file = "";
let n = 0;

mcpConfigSourceConformance({
  name: "extensionsFileMcpSource",
  makeSource: async () => {
    file = path.join(dir, `extensions_config.${n++}.json`);
    await fs.writeFile(file, JSON.stringify({ mcpServers: { fs: { command: "npx", args: ["-y", "pkg"] } } }));
    return extensionsFileMcpSource(file);
  },
  change: async () => {
    const data = JSON.parse(await fs.readFile(file, "utf8")) as { mcpServers: Record<string, unknown> };
    data.mcpServers["added"] = { type: "http", url: "https://mcp.example/mcp" };
    await fs.writeFile(file, JSON.stringify(data));
  },
  describe,
  it,
  expect,
});

mcpConfigSourceConformance({
  name: "staticMcpSource",
  makeSource: () => staticMcpSource({ web: { type: "sse", url: "https://mcp.example/sse" } }),
  describe,
  it,
  expect,
});
