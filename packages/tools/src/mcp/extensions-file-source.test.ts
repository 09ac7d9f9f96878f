import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { McpError } from "./errors.js";
import {
  extensionsFileMcpSource,
  fileSignature,
  fileSignatureReader,
  SIGNATURE_SETTLED_MS,
} from "./extensions-file-source.js";
import { parseMcpServers } from "./parse-mcp-servers.js";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "mcp-source-"));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

describe("extensions_config.json as an MCP source", () => {
  it("the signature changes on a same-second rewrite and is undefined once the file is gone", async () => {
    const file = path.join(dir, "extensions_config.json");
    await fs.writeFile(file, '{"mcpServers":{"a":{"command":"npx"}}}');
    const stat = await fs.stat(file);
    const first = await fileSignature(file);
    await fs.writeFile(file, '{"mcpServers":{"b":{"command":"npx"}}}'); // same size
    await fs.utimes(file, stat.atime, stat.mtime);
    const second = await fileSignature(file);
    expect(second).not.toBe(first);
    await fs.rm(file);
    expect(await fileSignature(file)).toBeUndefined();
  });

  it("the signature reader answers a settled file from its stat and rereads a changed or freshly written one", async () => {
    const file = path.join(dir, "extensions_config.json");
    await fs.writeFile(file, '{"mcpServers":{"a":{"command":"npx"}}}');
    let clock = Date.now();
    const signature = fileSignatureReader(file, { now: () => clock });
    const first = await signature();
    expect(first).toBe(await fileSignature(file));

    // Read in the same tick as the write: not trusted, so a same-size rewrite with the mtime put back is seen.
    const stat = await fs.stat(file);
    await fs.writeFile(file, '{"mcpServers":{"b":{"command":"npx"}}}');
    await fs.utimes(file, stat.atime, stat.mtime);
    const second = await signature();
    expect(second).not.toBe(first);
    expect(second).toBe(await fileSignature(file));

    // Settled (read well after its last change): the content is not read again while the stat stays.
    clock += SIGNATURE_SETTLED_MS + 1_000;
    expect(await signature()).toBe(second);
    const read = fs.readFile;
    let reads = 0;
    const spy = vi.spyOn(fs, "readFile").mockImplementation(((...args: Parameters<typeof read>) => {
      reads++;
      return read(...args);
    }) as typeof read);
    try {
      expect(await signature()).toBe(second);
      expect(await signature()).toBe(second);
      expect(reads).toBe(0);
      // Any write changes the stat (ctime cannot be set back), even with mtime and size restored.
      const before = await fs.stat(file);
      await fs.writeFile(file, '{"mcpServers":{"c":{"command":"npx"}}}');
      await fs.utimes(file, before.atime, before.mtime);
      const third = await signature();
      expect(reads).toBe(1);
      expect(third).not.toBe(second);
      expect(third).toBe(await fileSignature(file));
    } finally {
      spy.mockRestore();
    }

    await fs.rm(file);
    expect(await signature()).toBeUndefined();
    await fs.writeFile(file, '{"mcpServers":{"a":{"command":"npx"}}}');
    expect(await signature()).toBe(await fileSignature(file));
  });

  it("reads DeerFlow's keys, substitutes $VAR in enabled servers only, and names bad JSON", async () => {
    const file = path.join(dir, "extensions_config.json");
    await fs.writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          on: {
            command: "npx",
            args: ["-y", "$PKG"],
            env: { TOKEN: "$SECRET", LITERAL: "a$b" },
            tool_name_prefix: false,
            tool_call_timeout: 5,
            session_init_timeout: null,
          },
          web: {
            transport: "streamable_http",
            url: "https://mcp.example/mcp",
            headers: { Authorization: "$AUTH" },
            oauth: {
              token_url: "https://auth.example/t",
              client_id: "id",
              client_secret: "$CS",
              refresh_skew_seconds: 30,
            },
          },
          off: { enabled: false, command: "uvx", env: { TOKEN: "$SECRET" } },
        },
      }),
    );
    const servers = await extensionsFileMcpSource(file, { PKG: "pkg", SECRET: "s", CS: "cs" }).load();
    expect(servers["on"]).toEqual({
      enabled: true,
      type: "stdio",
      command: "npx",
      args: ["-y", "pkg"],
      env: { TOKEN: "s", LITERAL: "a$b" },
      toolNamePrefix: false,
      toolCallTimeout: 5,
      sessionInitTimeout: Infinity,
    });
    expect(servers["web"]).toMatchObject({
      type: "http",
      headers: { Authorization: "" },
      oauth: { tokenUrl: "https://auth.example/t", clientId: "id", clientSecret: "cs", refreshSkewSeconds: 30 },
    });
    expect(servers["off"]).toMatchObject({ enabled: false, env: { TOKEN: "$SECRET" } });

    await fs.writeFile(file, "{ nope");
    await expect(extensionsFileMcpSource(file).load()).rejects.toThrow(/invalid JSON/);
    expect(await extensionsFileMcpSource(path.join(dir, "missing.json")).load()).toEqual({});
  });

  it("refuses an mcpServers that is not a map of objects", () => {
    expect(() => parseMcpServers([])).toThrow(McpError);
    expect(() => parseMcpServers({ a: "npx" })).toThrow("mcpServers.a must be an object");
  });
});
