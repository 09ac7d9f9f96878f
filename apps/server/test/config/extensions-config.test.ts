import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, loadExtensionsConfig, ServerConfigError } from "../../src/config/index.js";
import { tempDirs, writeFiles } from "../helpers/temp-dir.js";

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

describe("loadExtensionsConfig", () => {
  it("reads skill states and MCP servers, substituting variables in enabled servers", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, {
      "extensions_config.json": JSON.stringify({
        skills: { "deep-research": { enabled: false }, "data-analysis": { enabled: true } },
        mcpServers: {
          github: { type: "stdio", command: "npx", args: ["-y", "server-github"], env: { GITHUB_TOKEN: "$GH_TOKEN" } },
          off: { enabled: false, url: "https://mcp.example/sse", headers: { Authorization: "Bearer $UNSET" } },
        },
      }),
    });
    const ext = await loadExtensionsConfig(path.join(dir, "extensions_config.json"), { GH_TOKEN: "ghp_x" });
    expect(ext.exists).toBe(true);
    expect([...ext.skillStates]).toEqual([
      ["deep-research", false],
      ["data-analysis", true],
    ]);
    expect(ext.mcpServers["github"]).toEqual({ enabled: true, type: "stdio", command: "npx", args: ["-y", "server-github"], env: { GITHUB_TOKEN: "ghp_x" } });
    expect(ext.mcpServers["off"]).toMatchObject({ enabled: false, type: "http", headers: { Authorization: "Bearer $UNSET" } });
  });

  it("names an unset variable of an enabled server by key path", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "extensions_config.json": JSON.stringify({ mcpServers: { gh: { command: "x", env: { T: "${GH}" } } } }) });
    const err = await loadExtensionsConfig(path.join(dir, "extensions_config.json"), {}).catch((e: unknown) => e);
    expect(ServerConfigError.isInstance(err) && err.code).toBe("CONFIG_ENV");
    expect((err as Error).message).toBe('extensions_config.json: mcpServers.gh.env.T: environment variable GH is not set (referenced as "${GH}")');
  });

  it("rejects invalid JSON and wrong shapes", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "bad.json": "{ skills: ", "shape.json": JSON.stringify({ skills: { x: { enabled: "no" } } }), "mcp.json": JSON.stringify({ mcpServers: { a: { type: "grpc" } } }) });
    const bad = await loadExtensionsConfig(path.join(dir, "bad.json"), {}).catch((e: unknown) => e);
    expect(ServerConfigError.isInstance(bad) && bad.code).toBe("CONFIG_PARSE");
    expect((bad as Error).message).toMatch(/^bad\.json: invalid JSON: /);
    const shape = await loadExtensionsConfig(path.join(dir, "shape.json"), {}).catch((e: unknown) => e);
    expect(ServerConfigError.isInstance(shape) && shape.code).toBe("CONFIG_INVALID");
    const mcp = await loadExtensionsConfig(path.join(dir, "mcp.json"), {}).catch((e: unknown) => e);
    expect((mcp as Error).message).toBe("mcp.json: mcpServers.a.type: must be one of: stdio, sse, http");
  });

  it("is loaded by loadConfig from extensions_config", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "config.yaml": "extensions_config: conf/ext.json\n", "conf/ext.json": JSON.stringify({ skills: { a: { enabled: false } } }) });
    const loaded = await loadConfig({ cwd: dir, env: {} });
    expect(loaded.extensions.path).toBe(path.join(dir, "conf", "ext.json"));
    expect(loaded.extensions.skillStates.get("a")).toBe(false);
  });
});
