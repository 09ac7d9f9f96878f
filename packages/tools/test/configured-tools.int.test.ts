import { tool } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolConfigStore, createConfiguredTools, toolsForGroups, validateToolsConfig } from "../src/index.js";
import { startFakeProviders } from "./support/fake-providers.js";
import type { TestServer } from "./support/http-server.js";

let api: TestServer;
beforeAll(async () => {
  api = await startFakeProviders();
});
afterAll(() => api.close());

const echo = tool(async ({ text }: { text: string }) => `echo: ${text}`, {
  name: "echo",
  description: "Echoes the text back",
  schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
});

function configWith(maxResults: number) {
  const { config, problems } = validateToolsConfig({
    tool_groups: [{ name: "web" }, { name: "misc" }],
    tools: [
      { name: "web_search", group: "web", use: "searxng", base_url: api.url, max_results: maxResults },
      { name: "echo", group: "misc", use: "./echo.js:echo" },
      { name: "made", group: "misc", use: "./echo.js:makeEcho", prefix: "P" },
    ],
  });
  expect(problems).toEqual([]);
  return config;
}

describe("createConfiguredTools", () => {
  it("builds built-ins and plugin tools (instances and factories given the entry's options), filtered by group", async () => {
    const loaded: string[] = [];
    const store = new ToolConfigStore(configWith(2));
    const tools = await createConfiguredTools({
      store,
      loadExport: async (use) => {
        loaded.push(use);
        if (use.endsWith(":echo")) return echo;
        return (o: { prefix: string }) =>
          tool(async () => `${o.prefix}!`, {
            name: "made",
            description: "Made by a factory",
            schema: { type: "object", properties: {} },
          });
      },
    });
    expect(loaded).toEqual(["./echo.js:echo", "./echo.js:makeEcho"]);
    expect(tools.map((t) => [t.tool.name, t.group])).toEqual([
      ["web_search", "web"],
      ["echo", "misc"],
      ["made", "misc"],
    ]);
    expect(toolsForGroups(tools, ["web"]).map((t) => t.name)).toEqual(["web_search"]);
    expect(toolsForGroups(tools, []).map((t) => t.name)).toEqual([]);
    expect(toolsForGroups(tools, undefined)).toHaveLength(3);
    expect(await tools[2]?.tool.invoke({})).toBe("P!");
  });

  it("built-ins read the store at each call: a replaced config applies to the next call; a removed entry says so", async () => {
    const store = new ToolConfigStore(configWith(2));
    const [search] = await createConfiguredTools({ store, loadExport: async () => echo });
    const count = async () =>
      (JSON.parse(String(await search?.tool.invoke({ query: "q" }))) as { total_results: number }).total_results;
    expect(await count()).toBe(2);
    store.replace(configWith(4));
    expect(await count()).toBe(4);
    store.replace({ tools: [], toolGroups: [] });
    expect(String(await search?.tool.invoke({ query: "q" }))).toBe(
      "Error: web_search is no longer configured (removed from config.yaml's tools:)",
    );
  });

  it("a plugin export that is not a tool is refused with the entry named", async () => {
    const store = new ToolConfigStore(configWith(2));
    await expect(createConfiguredTools({ store, loadExport: async () => ({ name: "x" }) })).rejects.toThrow(
      "tool 'echo': './echo.js:echo' is not a tool (expected a LangChain tool, or a class or function making one)",
    );
    await expect(createConfiguredTools({ store })).rejects.toThrow(/needs a plugin loader/);
  });
});
