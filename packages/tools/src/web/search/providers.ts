/**
 * The built-in `web_search` providers, each against its documented HTTP API.
 * Every one maps its own answer to `{title, url, content}`.
 */
import { parseHTML } from "linkedom";
import { arrayAt, baseUrl, parseJson, providerRequest, requireKey, str } from "../provider-http.js";
import type { SearchHit, WebSearchProvider } from "./web-search-provider.js";

const s = (extra: Record<string, unknown> = {}) => ({ type: "string", ...extra });
const keyed = { base_url: s({ minLength: 1 }), api_key: s() };
const hit = (title: unknown, url: unknown, content: unknown): SearchHit => ({
  title: str(title),
  url: str(url),
  content: str(content),
});
const usable = (h: SearchHit): boolean => h.url !== "";

/** SearXNG: `GET {base_url}/search?format=json` (self-hosted, no key). */
const searxngSearch: WebSearchProvider = {
  id: "searxng",
  label: "SearXNG",
  optionsSchema: { base_url: s({ minLength: 1, default: "http://localhost:8088" }), language: s({ default: "auto" }) },
  async search(query, maxResults, ctx) {
    const url = new URL(`${baseUrl(ctx, "http://localhost:8088")}/search`);
    url.search = new URLSearchParams({
      q: query,
      format: "json",
      language: str(ctx.options["language"]) || "auto",
      pageno: "1",
    }).toString();
    const data = parseJson(this.label, await providerRequest(ctx, { label: this.label, url }));
    return arrayAt(data, "results")
      .map((r) => {
        const o = r as Record<string, unknown>;
        return hit(o["title"], o["url"], o["content"]);
      })
      .filter(usable)
      .slice(0, maxResults);
  },
};

/** Tavily: `POST {base_url}/search` with `Authorization: Bearer`. */
const tavilySearch: WebSearchProvider = {
  id: "tavily",
  label: "Tavily",
  maxResultsCap: 20,
  optionsSchema: { ...keyed, search_depth: { enum: ["basic", "advanced"] }, topic: { enum: ["general", "news"] } },
  async search(query, maxResults, ctx) {
    const key = requireKey(ctx, "TAVILY_API_KEY");
    const text = await providerRequest(
      ctx,
      {
        label: this.label,
        url: `${baseUrl(ctx, "https://api.tavily.com")}/search`,
        headers: { authorization: `Bearer ${key}` },
        json: {
          query,
          max_results: maxResults,
          ...(ctx.options["search_depth"] === undefined ? {} : { search_depth: ctx.options["search_depth"] }),
          ...(ctx.options["topic"] === undefined ? {} : { topic: ctx.options["topic"] }),
        },
      },
      "api_key or TAVILY_API_KEY",
    );
    return arrayAt(parseJson(this.label, text), "results")
      .map((r) => {
        const o = r as Record<string, unknown>;
        return hit(o["title"], o["url"], o["content"]);
      })
      .filter(usable)
      .slice(0, maxResults);
  },
};

/** Brave Search: `GET {base_url}/web/search` with `X-Subscription-Token`. */
const braveSearch: WebSearchProvider = {
  id: "brave",
  label: "Brave Search",
  maxResultsCap: 20,
  optionsSchema: { ...keyed, country: s(), search_lang: s(), safesearch: { enum: ["off", "moderate", "strict"] } },
  async search(query, maxResults, ctx) {
    const key = requireKey(ctx, "BRAVE_SEARCH_API_KEY");
    const url = new URL(`${baseUrl(ctx, "https://api.search.brave.com/res/v1")}/web/search`);
    url.searchParams.set("q", query);
    url.searchParams.set("count", String(maxResults));
    for (const k of ["country", "search_lang", "safesearch"]) {
      const v = ctx.options[k];
      if (typeof v === "string") url.searchParams.set(k, v);
    }
    const text = await providerRequest(
      ctx,
      { label: this.label, url, headers: { "x-subscription-token": key } },
      "api_key or BRAVE_SEARCH_API_KEY",
    );
    const web = (parseJson(this.label, text) as Record<string, unknown> | null)?.["web"];
    return arrayAt(web, "results")
      .map((r) => {
        const o = r as Record<string, unknown>;
        return hit(o["title"], o["url"], o["description"]);
      })
      .filter(usable)
      .slice(0, maxResults);
  },
};

/** Serper (Google results): `POST {base_url}/search` with `X-API-KEY`. */
const serperSearch: WebSearchProvider = {
  id: "serper",
  label: "Serper",
  maxResultsCap: 10,
  optionsSchema: { ...keyed, gl: s(), hl: s() },
  async search(query, maxResults, ctx) {
    const key = requireKey(ctx, "SERPER_API_KEY");
    const text = await providerRequest(
      ctx,
      {
        label: this.label,
        url: `${baseUrl(ctx, "https://google.serper.dev")}/search`,
        headers: { "x-api-key": key },
        json: {
          q: query,
          num: maxResults,
          ...(typeof ctx.options["gl"] === "string" ? { gl: ctx.options["gl"] } : {}),
          ...(typeof ctx.options["hl"] === "string" ? { hl: ctx.options["hl"] } : {}),
        },
      },
      "api_key or SERPER_API_KEY",
    );
    return arrayAt(parseJson(this.label, text), "organic")
      .map((r) => {
        const o = r as Record<string, unknown>;
        return hit(o["title"], o["link"], o["snippet"]);
      })
      .filter(usable)
      .slice(0, maxResults);
  },
};

/** Exa: `POST {base_url}/search` with `x-api-key`, page text cut to `contents_max_characters`. */
const exaSearch: WebSearchProvider = {
  id: "exa",
  label: "Exa",
  maxResultsCap: 100,
  optionsSchema: {
    ...keyed,
    search_type: { enum: ["auto", "neural", "keyword", "fast"], default: "auto" },
    contents_max_characters: { type: "integer", minimum: 1, default: 1000 },
  },
  async search(query, maxResults, ctx) {
    const key = requireKey(ctx, "EXA_API_KEY");
    const text = await providerRequest(
      ctx,
      {
        label: this.label,
        url: `${baseUrl(ctx, "https://api.exa.ai")}/search`,
        headers: { "x-api-key": key },
        json: {
          query,
          numResults: maxResults,
          type: ctx.options["search_type"] ?? "auto",
          contents: { text: { maxCharacters: ctx.options["contents_max_characters"] ?? 1000 } },
        },
      },
      "api_key or EXA_API_KEY",
    );
    return arrayAt(parseJson(this.label, text), "results")
      .map((r) => {
        const o = r as Record<string, unknown>;
        const highlights = Array.isArray(o["highlights"]) ? o["highlights"].map(str).join("\n") : "";
        return hit(o["title"], o["url"], str(o["text"]) || highlights || str(o["summary"]));
      })
      .filter(usable)
      .slice(0, maxResults);
  },
};

/** DuckDuckGo's result links go through `/l/?uddg=<target>`; the model gets the target. */
function ddgTarget(href: string): string {
  try {
    const u = new URL(href, "https://duckduckgo.com");
    return u.searchParams.get("uddg") ?? u.href;
  } catch {
    return "";
  }
}

/** DeerFlow's rule: with the worldwide region, a query in Chinese is searched in `cn-zh`. */
function ddgRegion(region: string, query: string): string {
  return region === "wt-wt" && /[\u3400-\u9fff]/.test(query) ? "cn-zh" : region;
}

/** DuckDuckGo (no key): its HTML endpoint `POST {base_url}/html/`, parsed with a DOM. */
const duckduckgoSearch: WebSearchProvider = {
  id: "duckduckgo",
  label: "DuckDuckGo",
  optionsSchema: {
    base_url: s({ minLength: 1, default: "https://html.duckduckgo.com" }),
    region: s({ default: "wt-wt" }),
    safesearch: { enum: ["on", "moderate", "off"], default: "moderate" },
  },
  async search(query, maxResults, ctx) {
    const safe = { on: "1", moderate: "-1", off: "-2" }[str(ctx.options["safesearch"]) || "moderate"] ?? "-1";
    const html = await providerRequest(ctx, {
      label: this.label,
      url: `${baseUrl(ctx, "https://html.duckduckgo.com")}/html/`,
      headers: { accept: "text/html" },
      form: { q: query, kl: ddgRegion(str(ctx.options["region"]) || "wt-wt", query), kp: safe },
    });
    const { document } = parseHTML(html);
    const hits: SearchHit[] = [];
    for (const node of document.querySelectorAll(".result")) {
      if (node.classList.contains("result--ad")) continue;
      const a = node.querySelector(".result__a");
      if (a === null) continue;
      const url = ddgTarget(a.getAttribute("href") ?? "");
      const title = a.textContent?.trim() ?? "";
      const content = node.querySelector(".result__snippet")?.textContent?.trim() ?? "";
      if (url !== "") hits.push({ title, url, content });
      if (hits.length >= maxResults) break;
    }
    return hits;
  },
};

/** Every built-in `web_search` provider by `use:` id. */
export const WEB_SEARCH_PROVIDERS: Readonly<Record<string, WebSearchProvider>> = Object.fromEntries(
  [searxngSearch, tavilySearch, braveSearch, serperSearch, exaSearch, duckduckgoSearch].map((p) => [p.id, p]),
);
