import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeConfig, loadConfig, loadExtensionsConfig, ServerConfigError } from "./index.js";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";

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
    expect(ext.mcpServers["github"]).toEqual({
      enabled: true,
      type: "stdio",
      command: "npx",
      args: ["-y", "server-github"],
      env: { GITHUB_TOKEN: "ghp_x" },
    });
    expect(ext.mcpServers["off"]).toMatchObject({
      enabled: false,
      type: "http",
      headers: { Authorization: "Bearer $UNSET" },
    });
  });

  it("names an unset variable of an enabled server by key path", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, {
      "extensions_config.json": JSON.stringify({ mcpServers: { gh: { command: "x", env: { T: "${GH}" } } } }),
    });
    const err = await loadExtensionsConfig(path.join(dir, "extensions_config.json"), {}).catch((e: unknown) => e);
    expect(ServerConfigError.isInstance(err) && err.code).toBe("CONFIG_ENV");
    expect((err as Error).message).toBe(
      'extensions_config.json: mcpServers.gh.env.T: environment variable GH is not set (referenced as "${GH}")',
    );
  });

  it("rejects invalid JSON and wrong shapes", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, {
      "bad.json": "{ skills: ",
      "shape.json": JSON.stringify({ skills: { x: { enabled: "no" } } }),
      "mcp.json": JSON.stringify({ mcpServers: { a: { type: "grpc" } } }),
    });
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
    await writeFiles(dir, {
      "config.yaml": "extensions_config: conf/ext.json\n",
      "conf/ext.json": JSON.stringify({ skills: { a: { enabled: false } } }),
    });
    const loaded = await loadConfig({ cwd: dir, env: {} });
    expect(loaded.extensions.path).toBe(path.join(dir, "conf", "ext.json"));
    expect(loaded.extensions.skillStates.get("a")).toBe(false);
  });
});

describe("locating extensions_config.json (the lookup shared with deerflow-skills)", () => {
  const ENV = "DEER_FLOW_EXTENSIONS_CONFIG_PATH";
  const disabling = (name: string): string => JSON.stringify({ skills: { [name]: { enabled: false } } });

  it("uses DEER_FLOW_EXTENSIONS_CONFIG_PATH when config.yaml does not set extensions_config", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, {
      "config.yaml": "agent:\n  name: T\n",
      "extensions_config.json": disabling("local"),
      "elsewhere/ext.json": disabling("from-env"),
    });
    const loaded = await loadConfig({ cwd: dir, env: { [ENV]: path.join(dir, "elsewhere", "ext.json") } });
    expect(loaded.config.extensionsConfigPath).toBe(path.join(dir, "elsewhere", "ext.json"));
    expect([...loaded.extensions.skillStates.keys()]).toEqual(["from-env"]);
    expect(describeConfig(loaded)).toContain(
      `extensions: ${path.join(dir, "elsewhere", "ext.json")} [environment (${ENV} is set)], disabled skills: from-env`,
    );
  });

  it("lets config.yaml's extensions_config win over the variable, even before the file exists", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "config.yaml": "extensions_config: conf/ext.json\n", "env.json": disabling("from-env") });
    const loaded = await loadConfig({ cwd: dir, env: { [ENV]: path.join(dir, "env.json") } });
    expect(loaded.config.extensionsConfigPath).toBe(path.join(dir, "conf", "ext.json"));
    expect(loaded.extensions).toMatchObject({ exists: false });
    expect(loaded.provenance["extensions_config"]).toBe("config");
  });

  it("fails with CONFIG_NOT_FOUND naming the path when the variable names a missing file", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "extensions_config.json": "{}" });
    const missing = path.join(dir, "missing.json");
    const err = await loadConfig({ cwd: dir, env: { [ENV]: missing } }).catch((e: unknown) => e);
    expect(ServerConfigError.isInstance(err) && err.code).toBe("CONFIG_NOT_FOUND");
    expect((err as Error).message).toBe(
      `extensions_config.json: Extensions config file specified by environment variable \`${ENV}\` not found at ${missing}`,
    );
  });

  it("reads DeerFlow's legacy mcp_config.json next to config.yaml when there is no extensions_config.json", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "etc/config.yaml": "agent:\n  name: T\n", "etc/mcp_config.json": disabling("legacy") });
    const loaded = await loadConfig({ cwd: dir, path: "etc/config.yaml", env: {} });
    expect(loaded.config.extensionsConfigPath).toBe(path.join(dir, "etc", "mcp_config.json"));
    expect(loaded.extensions.skillStates.get("legacy")).toBe(false);
  });

  it("keeps <config folder>/extensions_config.json as the place to create the file when nothing is found", async () => {
    const dir = await tmp.make();
    const loaded = await loadConfig({ cwd: dir, env: {} });
    expect(loaded.config.extensionsConfigPath).toBe(path.join(dir, "extensions_config.json"));
    expect(loaded.provenance["extensions_config"]).toBe("default");
    expect(describeConfig(loaded)).toContain(
      `extensions: ${path.join(dir, "extensions_config.json")} (not present: every skill enabled) [default]`,
    );
  });
});
