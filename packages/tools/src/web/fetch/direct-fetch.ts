/**
 * `use: fetch`: the page is fetched here, through the SSRF-safe fetcher, and
 * read by content type: HTML through Readability to Markdown, text as it is,
 * PDFs through the host's `pdfToMarkdown` (refused with a clear text without one:
 * this package ships no PDF parser).
 */
import { finalUrl, readLimitedBody } from "../safe-fetch/safe-fetch.js";
import { WebToolError } from "../web-tool-error.js";
import { decodeBody } from "./decode-body.js";
import { htmlToMarkdown } from "./html-to-markdown.js";
import type { WebFetchProvider } from "./web-fetch-provider.js";

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const HTML = /^(text\/html|application\/xhtml\+xml)$/;
const TEXT = /^(text\/[\w.+-]+|application\/(json|xml|[\w.+-]+\+(json|xml)|javascript|x-yaml|yaml))$/;

/** The direct fetcher. */
export const directFetch: WebFetchProvider = {
  id: "fetch",
  label: "web_fetch",
  optionsSchema: {
    max_bytes: { type: "integer", minimum: 1024, default: DEFAULT_MAX_BYTES },
    user_agent: { type: "string", minLength: 1 },
  },
  async fetchPage(url, ctx) {
    const res = await ctx.safeFetch(url, {
      headers: {
        accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5",
        "user-agent":
          typeof ctx.options["user_agent"] === "string" ? ctx.options["user_agent"] : "DeerFlow-web_fetch/1",
      },
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
    const maxBytes = typeof ctx.options["max_bytes"] === "number" ? ctx.options["max_bytes"] : DEFAULT_MAX_BYTES;
    const contentType = res.headers.get("content-type");
    const mime = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (!res.ok) {
      await res.body?.cancel();
      throw new WebToolError("PROVIDER_HTTP", `${url} answered HTTP ${res.status}`);
    }
    if (mime === "application/pdf") {
      if (ctx.pdfToMarkdown === undefined) {
        await res.body?.cancel();
        throw new WebToolError(
          "PROVIDER_RESPONSE",
          `${url} is a PDF document; web_fetch reads HTML and text pages only (download it into the sandbox to read it)`,
        );
      }
      const text = (await ctx.pdfToMarkdown(await readLimitedBody(res, { maxBytes }))).trim();
      if (text === "") throw new WebToolError("PROVIDER_RESPONSE", `${url} is a PDF without extractable text`);
      const name = decodeURIComponent(new URL(finalUrl(res)).pathname.split("/").pop() ?? "") || "document.pdf";
      return `# ${name}\n\n${text}`;
    }
    const isHtml = mime === "" || HTML.test(mime);
    if (!isHtml && !TEXT.test(mime)) {
      await res.body?.cancel();
      throw new WebToolError("PROVIDER_RESPONSE", `${url} is ${mime}, not a page web_fetch can read`);
    }
    const text = decodeBody(await readLimitedBody(res, { maxBytes }), contentType, isHtml);
    if (!isHtml) return text;
    const page = htmlToMarkdown(text, finalUrl(res));
    if (page.markdown.trim() === "") throw new WebToolError("PROVIDER_RESPONSE", `${url} has no readable content`);
    return page.markdown;
  },
};
