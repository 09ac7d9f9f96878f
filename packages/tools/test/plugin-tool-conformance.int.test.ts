// The plugin-tool kit run against the built-in web tools, each backed by a local server speaking its API.
import { afterAll, describe, expect, it } from "vitest";
import { createImageSearchTool, createWebFetchTool, createWebSearchTool } from "../src/index.js";
import { pluginToolConformance } from "../src/testing/index.js";
import { GOOD_KEY, startFakeProviders } from "./support/fake-providers.js";

const api = await startFakeProviders();
afterAll(() => api.close());
const resolver = async () => [{ address: "93.184.216.34", family: 4 as const }];

const searchShape = (text: string): void => {
  const r = JSON.parse(text) as {
    query: string;
    total_results: number;
    results: { title: string; url: string; content: string }[];
  };
  expect(r.total_results).toBe(r.results.length);
  for (const h of r.results) expect(Object.keys(h).sort()).toEqual(["content", "title", "url"]);
};

for (const provider of ["brave", "serper", "tavily", "exa"])
  pluginToolConformance({
    name: `web_search (${provider})`,
    makeTool: () =>
      createWebSearchTool({ provider, options: { base_url: api.url, api_key: GOOD_KEY, timeout: 1 }, env: {} }),
    validInput: { query: "deer" },
    checkResult: searchShape,
    slowInput: { query: "slow" },
    timeoutMs: 1000,
    describe,
    it,
    expect,
  });

pluginToolConformance({
  name: "web_fetch (jina)",
  makeTool: () =>
    createWebFetchTool({ provider: "jina", options: { base_url: api.url, timeout: 1 }, resolver, env: {} }),
  validInput: { url: "https://example.org/page" },
  checkResult: (text) => expect(text).toMatch(/^# Read https:\/\/example\.org\/page/),
  slowInput: { url: "https://example.org/slow" },
  timeoutMs: 1000,
  describe,
  it,
  expect,
});

pluginToolConformance({
  name: "image_search (serper)",
  makeTool: () =>
    createImageSearchTool({
      provider: "serper",
      options: { base_url: api.url, api_key: GOOD_KEY, timeout: 1 },
      env: {},
    }),
  validInput: { query: "deer" },
  slowInput: { query: "slow" },
  timeoutMs: 1000,
  describe,
  it,
  expect,
});
