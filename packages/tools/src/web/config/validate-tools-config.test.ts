import { describe, expect, it } from "vitest";
import { ToolConfigStore } from "./tool-config-store.js";
import { validateToolsConfig } from "./validate-tools-config.js";

describe("validateToolsConfig", () => {
  it("accepts DeerFlow's entry shape, fills defaults and infers the tool from the name", () => {
    const { config, problems } = validateToolsConfig({
      tool_groups: [{ name: "web" }, { name: "file:read", extra: 1 }],
      tools: [
        { name: "web_search", group: "web", use: "tavily", api_key: "k", max_results: 7 },
        { name: "web_fetch", group: "web", use: "fetch", allow_private_addresses: true },
        { name: "image_search", group: "web", use: "serper" },
        { name: "news_search", group: "web", use: "exa", search_type: "neural" },
        { name: "wiki", group: "web", use: "./tools.js:WikiTool", anything: { goes: true } },
      ],
    });
    expect(problems).toEqual([]);
    expect(config.toolGroups).toEqual(["web", "file:read"]);
    expect(config.tools.map((t) => [t.name, t.kind])).toEqual([
      ["web_search", "web_search"],
      ["web_fetch", "web_fetch"],
      ["image_search", "image_search"],
      ["news_search", "web_search"],
      ["wiki", undefined],
    ]);
    expect(config.tools[0]?.options).toEqual({ api_key: "k", max_results: 7, timeout: 30 });
    expect(config.tools[1]?.options).toMatchObject({ allow_private_addresses: true, max_chars: 4096, timeout: 20 });
    expect(config.tools[4]?.options).toEqual({ anything: { goes: true } });
  });

  it("names the key path of every problem", () => {
    const { problems } = validateToolsConfig({
      tool_groups: [{ name: "web" }],
      tools: [
        { name: "web_search", group: "web", use: "bing" },
        { name: "web_fetch", group: "web", use: "fetch", max_chars: "lots", timout: 3 },
        { name: "web_search", group: "files", use: "brave", safesearch: "maybe" },
        { group: "web", use: "brave" },
        { name: "lookup", group: "web", use: "serper" },
        "not a mapping",
      ],
    });
    expect(problems).toEqual([
      {
        path: "tools[0].use",
        message: `unknown web_search provider 'bing' (built-in: searxng, tavily, brave, serper, exa, duckduckgo; or "<module>:<export>" for a plugin tool)`,
      },
      { path: "tools[1].timout", message: "unknown key for this provider" },
      { path: "tools[1].max_chars", message: "must be integer" },
      { path: "tools[2].name", message: "duplicate tool name 'web_search' (also tools[0])" },
      { path: "tools[2].group", message: "'files' is not declared under tool_groups (declared: web)" },
      { path: "tools[2].safesearch", message: "must be one of: off, moderate, strict" },
      { path: "tools[3].name", message: "is required (a non-empty string)" },
      {
        path: "tools[4].use",
        message: "'serper' serves several tools; name the entry web_search, web_fetch or image_search",
      },
      { path: "tools[5]", message: "must be a mapping with name, group and use" },
    ]);
  });

  it("the store swaps the sections whole and counts versions", async () => {
    let refreshed = 0;
    const a = validateToolsConfig({ tools: [{ name: "web_search", group: "web", use: "searxng" }] }).config;
    const b = validateToolsConfig({
      tools: [{ name: "web_search", group: "web", use: "searxng", max_results: 9 }],
    }).config;
    const store = new ToolConfigStore(a, { refresh: async () => void refreshed++ });
    expect((await store.current()).tools[0]?.options["max_results"]).toBe(5);
    store.replace(b);
    expect(store.version).toBe(1);
    expect(store.entry("web_search")?.options["max_results"]).toBe(9);
    expect(refreshed).toBe(1);
  });
});
