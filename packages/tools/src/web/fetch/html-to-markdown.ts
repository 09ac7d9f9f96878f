/**
 * HTML to Markdown: Readability picks the article out of a linkedom DOM and
 * turndown writes it as Markdown, the title first. A page Readability finds no
 * article in falls back to its whole body.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/** The extracted page. */
export interface ExtractedPage {
  readonly title: string;
  /** Markdown, starting with `# <title>` when the page has one. */
  readonly markdown: string;
}

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
turndown.remove(["script", "style", "noscript", "iframe", "form", "svg"] as unknown as TurndownService.Filter);

/**
 * Extracts a page's main content as Markdown.
 *
 * @param html - the page
 * @param url - its address (resolves relative links)
 * @returns title and Markdown
 */
export function htmlToMarkdown(html: string, url?: string): ExtractedPage {
  const { document } = parseHTML(html);
  if (url !== undefined) {
    // Readability resolves relative links against the document's base.
    const head = document.querySelector("head");
    if (head !== null && document.querySelector("base") === null) {
      const base = document.createElement("base");
      base.setAttribute("href", url);
      head.prepend(base);
    }
  }
  const pageTitle = document.querySelector("title")?.textContent?.trim() ?? "";
  // The article comes back as its DOM element, not serialised HTML: turndown walks it as it is,
  // instead of parsing the HTML a second time with its own DOM.
  const article = new Readability<unknown>(document as unknown as ConstructorParameters<typeof Readability>[0], {
    charThreshold: 100,
    serializer: (el) => el,
  }).parse();
  const title = (article?.title ?? pageTitle).trim();
  const content: unknown = article?.content ?? parseHTML(html).document.querySelector("body")?.innerHTML ?? "";
  // turndown pads list markers to a tab stop ("-   item"); one space reads the same and costs fewer tokens.
  const body = turndown
    .turndown(content as string)
    .replace(/^(\s*)(-|\d+\.)\s{2,}(?=\S)/gm, "$1$2 ")
    .trim();
  return { title, markdown: title === "" ? body : `# ${title}\n\n${body}` };
}
