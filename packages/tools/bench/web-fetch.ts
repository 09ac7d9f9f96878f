/**
 * web_fetch figure of `pnpm bench`: the direct provider's extraction per page
 * (`htmlToMarkdown`: linkedom DOM → Readability → turndown, title first)
 * against Readability alone on the same pages (the same linkedom DOM and
 * `Readability.parse`, no Markdown), in alternating batches so both see the
 * same machine load. The pages are generated: news-like articles with
 * navigation, sidebars, comments and scripts around the article, at three
 * sizes.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { htmlToMarkdown } from "../src/web/fetch/html-to-markdown.js";
import type { Figure } from "./report.js";

const ROUNDS = Number(process.env["BENCH_WEB_FETCH_ROUNDS"] ?? 30);

function page(paragraphs: number, seed: number): string {
  const words = "deer herd river valley spring grass collar north migration calving study season route".split(" ");
  const sentence = (i: number): string =>
    Array.from({ length: 14 }, (_, j) => words[(i * 7 + j * 3 + seed) % words.length]).join(" ") + ".";
  const para = (i: number): string =>
    `<p>${sentence(i)} ${sentence(i + 1)} <a href="/ref/${i}">ref ${i}</a> ${sentence(i + 2)}</p>`;
  const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="/section/${i}">Section ${i}</a></li>`).join("");
  const side = Array.from({ length: 20 }, (_, i) => `<div class="promo"><a href="/p/${i}">Promo ${i}</a></div>`).join(
    "",
  );
  const comments = Array.from(
    { length: 15 },
    (_, i) => `<div class="comment"><b>user${i}</b> ${sentence(i)}</div>`,
  ).join("");
  const body = Array.from({ length: paragraphs }, (_, i) =>
    i % 12 === 11 ? `<h2>Part ${i / 12}</h2><ul><li>${sentence(i)}</li><li>${sentence(i + 3)}</li></ul>` : para(i),
  ).join("\n");
  return `<!doctype html><html><head><title>Migration report ${seed}</title><script>var x=${seed};</script></head><body>
<header><nav><ul>${nav}</ul></nav></header><aside>${side}</aside>
<main><article><h1>Migration report ${seed}</h1>${body}</article></main>
<section id="comments">${comments}</section><footer>© Example</footer><script>track(${seed})</script></body></html>`;
}

const PAGES = [
  ...Array.from({ length: 4 }, (_, i) => page(20, i)),
  ...Array.from({ length: 4 }, (_, i) => page(120, 10 + i)),
  ...Array.from({ length: 2 }, (_, i) => page(500, 20 + i)),
];

function readabilityAlone(html: string): number {
  const { document } = parseHTML(html);
  // The same options as htmlToMarkdown's, so the difference is the Markdown step and the title.
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
    charThreshold: 100,
  }).parse();
  return article?.content?.length ?? 0;
}

function perPage(fn: (html: string) => unknown): number {
  const start = process.hrtime.bigint();
  for (const html of PAGES) fn(html);
  return Number(process.hrtime.bigint() - start) / 1e6 / PAGES.length;
}

/** The web_fetch extraction figure. */
export function webFetchFigures(): Figure[] {
  const bytes = PAGES.reduce((n, p) => n + p.length, 0);
  for (let i = 0; i < 3; i++) {
    perPage((h) => htmlToMarkdown(h, "https://example.org/a"));
    perPage(readabilityAlone);
  }
  const ours: number[] = [];
  const base: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    ours.push(perPage((h) => htmlToMarkdown(h, "https://example.org/a")));
    base.push(perPage(readabilityAlone));
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const o = median(ours);
  const b = median(base);
  return [
    {
      benchmark: `tools: web_fetch extraction per page (htmlToMarkdown: linkedom + Readability + turndown, title first), ${PAGES.length} generated article pages of ${Math.round(bytes / PAGES.length / 1024)} KiB on average, median of ${ROUNDS} rounds; lower is better`,
      figure: `${o.toFixed(2)} ms/page`,
      baseline: `${b.toFixed(2)} ms/page (Readability alone on the same linkedom DOM, no Markdown, same run)`,
      ratio: o / b,
    },
  ];
}
