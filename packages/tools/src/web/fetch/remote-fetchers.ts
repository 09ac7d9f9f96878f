/**
 * `use: jina` and `use: firecrawl`: the page is fetched by a reader service.
 * The URL is vetted here first: a self-hosted reader on the same network would
 * otherwise fetch internal addresses for the model.
 */
import { baseUrl, parseJson, providerRequest, requireKey, str } from "../provider-http.js";
import type { ProviderContext } from "../provider-context.js";
import { WebToolError } from "../web-tool-error.js";
import { htmlToMarkdown } from "./html-to-markdown.js";
import type { WebFetchProvider } from "./web-fetch-provider.js";

const keyed = { base_url: { type: "string", minLength: 1 }, api_key: { type: "string" } };

function optionalKey(ctx: ProviderContext, envName: string): string | undefined {
  try {
    return requireKey(ctx, envName);
  } catch {
    return undefined;
  }
}

let warnedNoJinaKey = false;

/** Jina Reader: `POST {base_url}/` with `{url}`, HTML back, then the same Readability extraction. */
export const jinaFetch: WebFetchProvider = {
  id: "jina",
  label: "Jina Reader",
  optionsSchema: keyed,
  async fetchPage(url, ctx) {
    await ctx.vetUrl(url);
    const key = optionalKey(ctx, "JINA_API_KEY");
    if (key === undefined && !warnedNoJinaKey) {
      // Once per process, as DeerFlow: Jina works without a key, at a lower rate limit.
      warnedNoJinaKey = true;
      ctx.logger.warn({}, "web_fetch (jina): no api_key or JINA_API_KEY; Jina Reader's keyless rate limit applies");
    }
    const html = await providerRequest(
      ctx,
      {
        label: this.label,
        url: `${baseUrl(ctx, "https://r.jina.ai")}/`,
        headers: {
          accept: "text/html",
          "x-return-format": "html",
          "x-timeout": String(Math.max(1, Math.round(ctx.timeoutMs / 1000))),
          ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
        },
        json: { url },
      },
      "api_key or JINA_API_KEY",
    );
    if (html.trim() === "") throw new WebToolError("PROVIDER_RESPONSE", "Jina API returned empty response");
    return htmlToMarkdown(html, url).markdown;
  },
};

/** Firecrawl: `POST {base_url}/v1/scrape` with `formats: ["markdown"]`. */
export const firecrawlFetch: WebFetchProvider = {
  id: "firecrawl",
  label: "Firecrawl",
  optionsSchema: { ...keyed, only_main_content: { type: "boolean", default: true } },
  async fetchPage(url, ctx) {
    await ctx.vetUrl(url);
    const key = requireKey(ctx, "FIRECRAWL_API_KEY");
    const text = await providerRequest(
      ctx,
      {
        label: this.label,
        url: `${baseUrl(ctx, "https://api.firecrawl.dev")}/v1/scrape`,
        headers: { authorization: `Bearer ${key}` },
        json: { url, formats: ["markdown"], onlyMainContent: ctx.options["only_main_content"] !== false },
      },
      "api_key or FIRECRAWL_API_KEY",
    );
    const body = parseJson(this.label, text) as { success?: unknown; error?: unknown; data?: Record<string, unknown> };
    if (body.success === false)
      throw new WebToolError("PROVIDER_RESPONSE", `Firecrawl: ${str(body.error) || "failed"}`);
    const markdown = str(body.data?.["markdown"]).trim();
    if (markdown === "") throw new WebToolError("PROVIDER_RESPONSE", "No content found");
    const title = str((body.data?.["metadata"] as Record<string, unknown> | undefined)?.["title"]).trim();
    return title === "" || markdown.startsWith("# ") ? markdown : `# ${title}\n\n${markdown}`;
  },
};
