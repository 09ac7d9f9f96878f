import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebFetchTool } from "../src/index.js";
import { startServer, type TestServer } from "./support/http-server.js";

const ARTICLE = `<!doctype html><html><head><title>Deer migration | Wild News</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Deer migration</h1>
<p>Every spring the herds move north along the river valleys, following the green-up of new grass. ${"Researchers have tracked them with GPS collars for a decade. ".repeat(6)}</p>
<h2>Why they move</h2><p>Food and calving grounds drive the timing. See <a href="/study">the study</a>.</p>
<ul><li>Distance: 200 km</li><li>Duration: 3 weeks</li></ul></article>
<footer>Copyright Wild News</footer><script>track()</script></body></html>`;

let pages: TestServer;
beforeAll(async () => {
  pages = await startServer((req, res) => {
    switch (req.url) {
      case "/article":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(ARTICLE);
      case "/latin1":
        // The header names the charset; the bytes are windows-1252, not UTF-8.
        res.writeHead(200, { "content-type": "text/html; charset=windows-1252" });
        return res.end(
          Buffer.from(
            `<html><head><title>Caf\xe9</title></head><body><p>${"Cr\xe8me br\xfbl\xe9e au caf\xe9. ".repeat(20)}</p></body></html>`,
            "latin1",
          ),
        );
      case "/meta-charset":
        res.writeHead(200, { "content-type": "text/html" });
        return res.end(
          Buffer.from(
            `<html><head><meta charset="iso-8859-1"><title>Na\xefve</title></head><body><p>${"Na\xefve fa\xe7ade text here. ".repeat(20)}</p></body></html>`,
            "latin1",
          ),
        );
      case "/text":
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        return res.end("plain notes: ünïcode ok");
      case "/pdf":
        res.writeHead(200, { "content-type": "application/pdf" });
        return res.end("%PDF-1.4 ...");
      case "/image":
        res.writeHead(200, { "content-type": "image/png" });
        return res.end("png");
      case "/long":
        res.writeHead(200, { "content-type": "text/plain" });
        return res.end("z".repeat(10_000));
      case "/huge":
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<p>" + "h".repeat(3_000_000) + "</p>");
      case "/missing":
        res.writeHead(404, { "content-type": "text/html" });
        return res.end("<h1>Not found</h1>");
      case "/to-metadata":
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/iam" });
        return res.end();
      case "/slow":
        res.writeHead(200, { "content-type": "text/html" });
        return res.write("<html>");
      default:
        res.writeHead(404);
        return res.end();
    }
  });
});
afterAll(() => pages.close());

const open = (options: Record<string, unknown> = {}): StructuredToolInterface =>
  createWebFetchTool({ provider: "fetch", options: { allow_private_addresses: true, ...options } });
const get = async (t: StructuredToolInterface, path: string): Promise<string> =>
  String(await t.invoke({ url: `${pages.url}${path}` }));

describe("web_fetch (direct)", () => {
  it("extracts the article as Markdown, title first, without navigation, footer or scripts", async () => {
    const md = await get(open(), "/article");
    expect(md.startsWith("# Deer migration")).toBe(true);
    expect(md).toContain("## Why they move");
    expect(md).toContain("- Distance: 200 km");
    expect(md).toContain(`[the study](${pages.url}/study)`);
    expect(md).not.toContain("Copyright Wild News");
    expect(md).not.toContain("track()");
  });

  it("honours the charset of the header, then of <meta>", async () => {
    expect(await get(open(), "/latin1")).toContain("Crème brûlée au café.");
    expect(await get(open(), "/meta-charset")).toContain("Naïve façade text here.");
  });

  it("returns plain text as it is; refuses PDFs and images with a clear text", async () => {
    expect(await get(open(), "/text")).toBe("plain notes: ünïcode ok");
    expect(await get(open(), "/pdf")).toMatch(
      /^Error: .*\/pdf is a PDF document; web_fetch reads HTML and text pages only/,
    );
    expect(await get(open(), "/image")).toMatch(/is image\/png, not a page web_fetch can read$/);
    expect(await get(open(), "/missing")).toMatch(/answered HTTP 404$/);
  });

  it("reads a PDF through the host's pdfToMarkdown, named by its file, within max_bytes", async () => {
    const seen: number[] = [];
    const withPdf = createWebFetchTool({
      provider: "fetch",
      options: { allow_private_addresses: true },
      pdfToMarkdown: async (data) => {
        seen.push(data.byteLength);
        return `## Page 1\n\n${Buffer.from(data).toString("latin1")}`;
      },
    });
    expect(await get(withPdf, "/pdf")).toBe("# pdf\n\n## Page 1\n\n%PDF-1.4 ...");
    expect(seen).toEqual([12]);
  });

  it("truncates to max_chars (4096 by default)", async () => {
    expect(await get(open(), "/long")).toHaveLength(4096);
    expect(await get(open({ max_chars: 500 }), "/long")).toHaveLength(500);
  });

  it("refuses a body over max_bytes and a page slower than timeout", async () => {
    expect(await get(open({ max_bytes: 1_000_000 }), "/huge")).toBe("Error: The response is larger than 1000000 bytes");
    expect(await get(open({ timeout: 1 }), "/slow")).toMatch(
      /^Error: No complete answer from 127\.0\.0\.1:\d+ within 1s$/,
    );
  });

  it("is SSRF-safe by default: loopback refused, and metadata refused even with private allowed", async () => {
    const strict = createWebFetchTool({ provider: "fetch" });
    expect(await get(strict, "/article")).toMatch(/^Error: Refusing to fetch 127\.0\.0\.1: it is a loopback address/);
    expect(await get(open(), "/to-metadata")).toMatch(
      /^Error: Refusing to fetch 169\.254\.169\.254: it is a metadata address/,
    );
    expect(String(await strict.invoke({ url: "file:///etc/passwd" }))).toBe(
      "Error: Only http:// and https:// URLs are supported",
    );
  });

  it("a cancelled run rejects instead of returning an error text", async () => {
    const ac = new AbortController();
    const pending = open().invoke({ url: `${pages.url}/slow` }, { signal: ac.signal });
    ac.abort(new Error("run cancelled"));
    await expect(pending).rejects.toThrow();
  });
});
