import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createImageSearchTool,
  createWebFetchTool,
  createWebSearchTool,
  WebToolConfigError,
  type HostResolver,
} from "../src/index.js";
import { GOOD_KEY, startFakeProviders } from "./support/fake-providers.js";
import type { TestServer } from "./support/http-server.js";

let api: TestServer;
beforeAll(async () => {
  api = await startFakeProviders();
});
afterAll(() => api.close());

const run = async (t: StructuredToolInterface, args: Record<string, unknown>): Promise<string> =>
  String(await t.invoke(args));
const parsed = async (t: StructuredToolInterface, args: Record<string, unknown>) =>
  JSON.parse(await run(t, args)) as {
    query: string;
    total_results: number;
    results: { title: string; url: string; content: string }[];
    error?: string;
  };

const publicResolver: HostResolver = async () => [{ address: "93.184.216.34", family: 4 }];
const keyed = ["tavily", "brave", "serper", "exa"] as const;

describe("web_search: every provider gives the one normalised shape", () => {
  for (const provider of ["searxng", "duckduckgo", ...keyed]) {
    it(`${provider}: {query, total_results, results: [{title, url, content}]}, max_results caps the model's value`, async () => {
      const key = (keyed as readonly string[]).includes(provider) ? { api_key: GOOD_KEY } : {};
      const t = createWebSearchTool({ provider, options: { base_url: api.url, ...key, max_results: 3 }, env: {} });
      const out = await parsed(t, { query: "deer flow", max_results: 50 });
      expect(out.query).toBe("deer flow");
      expect(out.total_results).toBe(3);
      expect(out.results).toEqual(
        [1, 2, 3].map((i) => ({ title: `Result ${i}`, url: `https://example.org/${i}`, content: `About ${i}` })),
      );
      const fewer = await parsed(t, { query: "deer flow", max_results: 2 });
      expect(fewer.results).toHaveLength(2);
    });
  }

  it("sends each provider's documented request", async () => {
    const before = api.requests.length;
    for (const provider of keyed)
      await run(createWebSearchTool({ provider, options: { base_url: api.url, api_key: GOOD_KEY }, env: {} }), {
        query: "q1",
      });
    const seen = api.requests.slice(before);
    expect(seen[0]).toMatchObject({ method: "POST", url: "/search", headers: { authorization: `Bearer ${GOOD_KEY}` } });
    expect(JSON.parse(seen[0]?.body ?? "")).toMatchObject({ query: "q1", max_results: 5 });
    expect(seen[1]).toMatchObject({ method: "GET", headers: { "x-subscription-token": GOOD_KEY } });
    expect(seen[1]?.url).toBe("/web/search?q=q1&count=5");
    expect(seen[2]).toMatchObject({ method: "POST", url: "/search", headers: { "x-api-key": GOOD_KEY } });
    expect(JSON.parse(seen[2]?.body ?? "")).toEqual({ q: "q1", num: 5 });
    expect(JSON.parse(seen[3]?.body ?? "")).toMatchObject({ query: "q1", numResults: 5, type: "auto" });
  });

  it("Serper caps at 10 and Brave at 20 whatever the config says", async () => {
    const serper = createWebSearchTool({
      provider: "serper",
      options: { base_url: api.url, api_key: GOOD_KEY, max_results: 50 },
      env: {},
    });
    expect((await parsed(serper, { query: "q" })).total_results).toBe(10);
    const brave = createWebSearchTool({
      provider: "brave",
      options: { base_url: api.url, api_key: GOOD_KEY, max_results: 50 },
      env: {},
    });
    expect((await parsed(brave, { query: "q" })).total_results).toBe(20);
  });

  it("an empty or whitespace api_key falls back to the environment variable", async () => {
    const t = createWebSearchTool({
      provider: "serper",
      options: { base_url: api.url, api_key: "  " },
      env: { SERPER_API_KEY: GOOD_KEY },
    });
    expect((await parsed(t, { query: "q" })).total_results).toBe(5);
    const none = createWebSearchTool({ provider: "serper", options: { base_url: api.url }, env: {} });
    expect(await parsed(none, { query: "q" })).toEqual({
      error: "SERPER_API_KEY is not configured (set the tool's api_key or SERPER_API_KEY)",
      query: "q",
    });
  });

  for (const provider of keyed) {
    it(`${provider}: clear texts for auth (401), quota (429), timeout and a broken answer`, async () => {
      const bad = createWebSearchTool({ provider, options: { base_url: api.url, api_key: "wrong" }, env: {} });
      expect((await parsed(bad, { query: "q" })).error).toMatch(
        /refused the API key \(HTTP 401\); check api_key or [A-Z_]+_API_KEY/,
      );
      const good = createWebSearchTool({
        provider,
        options: { base_url: api.url, api_key: GOOD_KEY, timeout: 1 },
        env: {},
      });
      expect((await parsed(good, { query: "quota" })).error).toMatch(/quota exceeded or rate limited \(HTTP 429\)/);
      expect((await parsed(good, { query: "slow" })).error).toMatch(/did not answer within 1s/);
      expect((await parsed(good, { query: "broken" })).error).toMatch(/returned a non-JSON answer/);
    });
  }

  it("no hits is DeerFlow's 'No results found'", async () => {
    for (const provider of ["searxng", ...keyed]) {
      const key = provider === "searxng" ? {} : { api_key: GOOD_KEY };
      const t = createWebSearchTool({ provider, options: { base_url: api.url, ...key }, env: {} });
      expect(await parsed(t, { query: "nothing" })).toEqual({ error: "No results found", query: "nothing" });
    }
    const wrongPath = createWebSearchTool({ provider: "searxng", options: { base_url: `${api.url}/v9` }, env: {} });
    expect((await parsed(wrongPath, { query: "q" })).error).toBe(
      'SearXNG API error: HTTP 404: {"error":"no such route"}',
    );
  });

  it("bad options and unknown providers fail at creation, naming the key", () => {
    expect(() => createWebSearchTool({ provider: "bing" })).toThrow(WebToolConfigError);
    expect(() => createWebSearchTool({ provider: "brave", options: { max_result: 3 } })).toThrow(
      /max_result: unknown key/,
    );
    expect(() => createWebSearchTool({ provider: "exa", options: { search_type: "magic" } })).toThrow(
      /search_type: must be one of: auto/,
    );
    expect(() => createWebSearchTool({ provider: "serper", options: { max_results: 0 } })).toThrow(
      /max_results: must be >= 1/,
    );
  });
});

describe("DeerFlow's given → expect", () => {
  it("duckduckgo: a Chinese query with region wt-wt is searched in cn-zh; other regions are kept", async () => {
    const t = createWebSearchTool({ provider: "duckduckgo", options: { base_url: api.url }, env: {} });
    await run(t, { query: "鹿的迁徙" });
    expect(new URLSearchParams(api.requests.at(-1)?.body).get("kl")).toBe("cn-zh");
    await run(t, { query: "deer migration" });
    expect(new URLSearchParams(api.requests.at(-1)?.body).get("kl")).toBe("wt-wt");
    const de = createWebSearchTool({
      provider: "duckduckgo",
      options: { base_url: api.url, region: "de-de" },
      env: {},
    });
    await run(de, { query: "鹿的迁徙" });
    expect(new URLSearchParams(api.requests.at(-1)?.body).get("kl")).toBe("de-de");
  });

  it("jina: a whitespace-only answer is the empty-response error; the missing-key warning is logged once", async () => {
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      error() {},
      warn: (_o: Record<string, unknown>, msg: string) => void warnings.push(msg),
    };
    const t = createWebFetchTool({
      provider: "jina",
      options: { base_url: api.url },
      resolver: publicResolver,
      env: {},
      logger,
    });
    expect(await run(t, { url: "https://example.org/blank" })).toBe("Error: Jina API returned empty response");
    await run(t, { url: "https://example.org/again" });
    expect(warnings.filter((w) => w.includes("JINA_API_KEY"))).toHaveLength(1);
  });
});

describe("web_fetch through reader services", () => {
  it("jina: POSTs the URL with X-Return-Format html and gives Markdown, title first", async () => {
    const t = createWebFetchTool({
      provider: "jina",
      options: { base_url: api.url },
      resolver: publicResolver,
      env: {},
    });
    const out = await run(t, { url: "https://example.org/article" });
    expect(out.startsWith("# Read https://example.org/article\n\n")).toBe(true);
    expect(out).toContain("Jina read this page for you.");
    const req = api.requests.at(-1);
    expect(req?.headers["x-return-format"]).toBe("html");
    expect(req?.headers.authorization).toBeUndefined();
  });

  it("firecrawl: scrape as markdown, title first; a wrong key is an auth error text", async () => {
    const t = createWebFetchTool({
      provider: "firecrawl",
      options: { base_url: api.url, api_key: GOOD_KEY },
      resolver: publicResolver,
      env: {},
    });
    expect(await run(t, { url: "https://example.org/p" })).toBe(
      "# Scraped title\n\nScraped body of https://example.org/p",
    );
    const bad = createWebFetchTool({
      provider: "firecrawl",
      options: { base_url: api.url, api_key: "nope" },
      resolver: publicResolver,
      env: {},
    });
    expect(await run(bad, { url: "https://example.org/p" })).toMatch(
      /^Error: Firecrawl refused the API key \(HTTP 401\)/,
    );
  });

  it("reader services are not handed private URLs (the guard runs before the hand-off)", async () => {
    const before = api.requests.length;
    for (const provider of ["jina", "firecrawl"]) {
      const t = createWebFetchTool({ provider, options: { base_url: api.url, api_key: GOOD_KEY }, env: {} });
      expect(await run(t, { url: "http://169.254.169.254/latest/meta-data/" })).toMatch(/^Error: Refusing to fetch/);
      expect(await run(t, { url: "http://10.0.0.8/admin" })).toMatch(/^Error: Refusing to fetch/);
    }
    expect(api.requests.length).toBe(before);
  });
});

describe("image_search", () => {
  it("serper: images in DeerFlow's shape; private and obfuscated-IP URLs are dropped field by field", async () => {
    const t = createImageSearchTool({ provider: "serper", options: { base_url: api.url, api_key: GOOD_KEY }, env: {} });
    const out = JSON.parse(await run(t, { query: "deer" })) as Record<string, unknown>;
    expect(out["results"]).toEqual([
      { title: "Good", image_url: "https://img.example.org/a.png", thumbnail_url: "https://img.example.org/a_t.png" },
      { title: "Half", image_url: "", thumbnail_url: "https://img.example.org/h_t.png" },
    ]);
    expect(out["total_results"]).toBe(2);
    expect(out["usage_hint"]).toMatch(/image_url/);
  });

  it("brave: image results", async () => {
    const t = createImageSearchTool({ provider: "brave", options: { base_url: api.url, api_key: GOOD_KEY }, env: {} });
    const out = JSON.parse(await run(t, { query: "deer" })) as { results: unknown[] };
    expect(out.results).toEqual([
      {
        title: "Brave image",
        image_url: "https://img.example.org/b.png",
        thumbnail_url: "https://img.example.org/b_t.png",
      },
    ]);
  });
});
