/**
 * The console's web results, in Debian's Chromium (playwright-core) against the
 * real server: the scripted model calls `web_search` (a SearXNG stand-in) and
 * `image_search` (a Serper stand-in); each tool-call card shows the results as
 * links with their titles (http(s) only: a `javascript:` result is not a link),
 * and a failed search shows its error text. axe-core: no serious or critical
 * violation.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium, screenshot } from "../support/browser.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

const lastText = (r: RecordedRequest): string => JSON.stringify(r.messages.at(-1)?.["content"] ?? "");

function script(request: RecordedRequest): ScriptStep {
  if (lastText(request).includes("Generate a concise title")) return { text: "Deer" };
  const done = request.messages.filter((m) => m["role"] === "tool").length;
  if (lastText(request).includes("quota please") && done === 0)
    return { toolCalls: [{ name: "web_search", args: { query: "quota" }, id: "call_quota" }] };
  if (lastText(request).includes("quota please")) return { text: "The search failed." };
  if (done === 0) return { toolCalls: [{ name: "web_search", args: { query: "deer migration" }, id: "call_s" }] };
  if (done === 1) return { toolCalls: [{ name: "image_search", args: { query: "deer" }, id: "call_i" }] };
  return { text: "Here is what I found." };
}

describe.skipIf(!HAVE_CHROMIUM)("console: web results in the tool-call card", () => {
  let stand: Server;
  let scripted: ScriptedServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureConsoleBuilt();
    stand = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      res.setHeader("content-type", "application/json");
      if (url.searchParams.get("q") === "quota") {
        res.statusCode = 429;
        return res.end("{}");
      }
      if (url.pathname === "/images")
        return res.end(
          JSON.stringify({
            images: [{ title: "A red deer stag", imageUrl: "https://img.example.org/stag.jpg", thumbnailUrl: "" }],
          }),
        );
      return res.end(
        JSON.stringify({
          results: [
            { title: "Deer migration explained", url: "https://wild.example.org/deer", content: "Herds move north." },
            { title: "Tracking herds by GPS", url: "https://science.example.net/gps", content: "Collars every hour." },
            { title: "Evil result", url: "javascript:alert(1)", content: "should not be a link" },
          ],
        }),
      );
    });
    await new Promise<void>((r) => stand.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
    scripted = await startScriptedServer(
      script,
      [
        "tools:",
        "  - { name: web_search, group: web, use: searxng, base_url: " + JSON.stringify(base) + " }",
        "  - { name: image_search, group: web, use: serper, api_key: k, base_url: " + JSON.stringify(base) + " }",
        "",
      ].join("\n"),
    );
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await scripted?.close();
    await new Promise<void>((r) => stand?.close(() => r()));
  });

  it("shows web_search and image_search results as links with titles", async () => {
    await page.goto(`${scripted.t.url}/chat`);
    await page.locator("#composer-input").fill("Find out about deer migration");
    await page.locator("#composer-input").press("Enter");
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");

    const search = page.locator("[data-testid=tool-call][data-tool-name=web_search]");
    expect(await search.locator(".tool-kind").textContent()).toBe("Web search");
    const results = search.getByRole("list", { name: "Results for deer migration" });
    const links = results.getByRole("link");
    expect(await links.allTextContents()).toEqual(["Deer migration explained", "Tracking herds by GPS"]);
    expect(await links.first().getAttribute("href")).toBe("https://wild.example.org/deer");
    expect(await links.first().getAttribute("rel")).toBe("noopener noreferrer");
    expect(await results.textContent()).toContain("Herds move north.");
    expect(await results.textContent()).not.toContain("should not be a link");

    const images = page.locator("[data-testid=tool-call][data-tool-name=image_search]");
    const imageLink = images.getByRole("list", { name: "Images for deer" }).getByRole("link");
    expect(await imageLink.allTextContents()).toEqual(["A red deer stag"]);
    expect(await imageLink.getAttribute("href")).toBe("https://img.example.org/stag.jpg");
    await screenshot(page, "chat-web-results");

    await expectAxeClean(page, "chat with web results");
  });

  it("shows a failed search's error text instead of links", async () => {
    await page.goto(`${scripted.t.url}/chat`);
    await page.locator("#composer-input").fill("quota please");
    await page.locator("#composer-input").press("Enter");
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
    const error = page.locator("[data-testid=tool-call][data-tool-name=web_search]").getByTestId("web-results-error");
    expect(await error.textContent()).toMatch(
      /^Search for “quota” failed: SearXNG quota exceeded or rate limited \(HTTP 429\)/,
    );
  });
});
