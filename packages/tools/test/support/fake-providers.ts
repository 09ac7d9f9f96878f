/**
 * One local server speaking the documented HTTP API of every built-in
 * provider (request shape, auth header, answer shape), with failure modes
 * switched by the query text: `quota` → 429, `slow` → never answers, `broken`
 * → a non-JSON 200, `nothing` → no hits. The key is `good-key`; any other gets 401.
 */
import type { IncomingMessage } from "node:http";
import { json, startServer, type TestServer } from "./http-server.js";

export const GOOD_KEY = "good-key";

const hits = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    title: `Result ${i + 1}`,
    url: `https://example.org/${i + 1}`,
    text: `About ${i + 1}`,
  }));

function keyOf(req: IncomingMessage): string | undefined {
  const h = req.headers;
  const bearer = /^Bearer (.+)$/.exec(String(h["authorization"] ?? ""))?.[1];
  return (h["x-api-key"] as string | undefined) ?? (h["x-subscription-token"] as string | undefined) ?? bearer;
}

export async function startFakeProviders(): Promise<TestServer> {
  return startServer((req, res, body) => {
    const url = new URL(req.url ?? "/", "http://x");
    const payload = (body.startsWith("{") ? JSON.parse(body) : Object.fromEntries(new URLSearchParams(body))) as Record<
      string,
      unknown
    >;
    const query = String(url.searchParams.get("q") ?? payload["q"] ?? payload["query"] ?? payload["url"] ?? "");
    if (query.includes("slow")) return; // never answers: the tool's timeout must end it
    if (query.includes("quota")) return json(res, 429, { error: "rate limited" });
    const keyless = req.method === "GET" && url.searchParams.get("format") === "json";
    const ddg = url.pathname === "/html/";
    const jina = url.pathname === "/" && req.method === "POST";
    if (!keyless && !ddg && !jina && keyOf(req) !== GOOD_KEY) return json(res, 401, { error: "invalid key" });
    if (query.includes("blank")) {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("   \n ");
    }
    if (query.includes("nothing")) return json(res, 200, { results: [], organic: [], web: { results: [] } });
    if (query.includes("broken")) {
      res.writeHead(200, { "content-type": "text/plain" });
      return res.end("<html>oops");
    }
    switch (`${req.method} ${url.pathname}`) {
      case "GET /search": // SearXNG
        return json(res, 200, {
          query,
          results: hits(12).map((h) => ({ title: h.title, url: h.url, content: h.text, engine: "x" })),
        });
      case "POST /search": {
        if ("numResults" in payload) {
          // Exa
          const n = Number(payload["numResults"]);
          return json(res, 200, { results: hits(n).map((h) => ({ title: h.title, url: h.url, text: h.text })) });
        }
        if ("max_results" in payload) {
          // Tavily
          const n = Number(payload["max_results"]);
          return json(res, 200, {
            query,
            results: hits(n).map((h) => ({ title: h.title, url: h.url, content: h.text, score: 0.9 })),
          });
        }
        // Serper
        const n = Number(payload["num"] ?? 10);
        return json(res, 200, {
          organic: hits(n).map((h, i) => ({ title: h.title, link: h.url, snippet: h.text, position: i + 1 })),
        });
      }
      case "GET /web/search": {
        const n = Number(url.searchParams.get("count") ?? 20);
        return json(res, 200, {
          type: "search",
          web: { results: hits(n).map((h) => ({ title: h.title, url: h.url, description: h.text })) },
        });
      }
      case "POST /images":
        return json(res, 200, {
          images: [
            {
              title: "Good",
              imageUrl: "https://img.example.org/a.png",
              thumbnailUrl: "https://img.example.org/a_t.png",
            },
            { title: "Private", imageUrl: "http://10.0.0.5/x.png", thumbnailUrl: "http://0x7f.1/t.png" },
            {
              title: "Half",
              imageUrl: "http://[::ffff:192.168.0.1]/x.png",
              thumbnailUrl: "https://img.example.org/h_t.png",
            },
          ],
        });
      case "GET /images/search":
        return json(res, 200, {
          results: [
            {
              title: "Brave image",
              properties: { url: "https://img.example.org/b.png" },
              thumbnail: { src: "https://img.example.org/b_t.png" },
            },
          ],
        });
      case "POST /html/": {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        const items = hits(8)
          .map(
            (h) =>
              `<div class="result results_links web-result"><h2 class="result__title"><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(h.url)}&rut=abc">${h.title}</a></h2><a class="result__snippet" href="#">${h.text}</a></div>`,
          )
          .join("");
        return res.end(
          `<html><body><div class="result result--ad"><a class="result__a" href="https://ads.example/">Ad</a></div>${items}</body></html>`,
        );
      }
      case "POST /": // Jina Reader, X-Return-Format: html
        res.writeHead(200, { "content-type": "text/html" });
        return res.end(
          `<html><head><title>Read ${query}</title></head><body><article><h1>Read ${query}</h1><p>${"Jina read this page for you. ".repeat(20)}</p></article></body></html>`,
        );
      case "POST /v1/scrape":
        return json(res, 200, {
          success: true,
          data: { markdown: `Scraped body of ${query}`, metadata: { title: "Scraped title", sourceURL: query } },
        });
      default:
        return json(res, 404, { error: "no such route" });
    }
  });
}
