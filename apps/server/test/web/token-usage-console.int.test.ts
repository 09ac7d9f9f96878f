/**
 * The console's token-usage panel, in Debian's Chromium (playwright-core) against
 * the real server with a model on the scripted OpenAI-compatible endpoint (which
 * reports `usage`): after each run the chat shows the thread's totals and the
 * latest run's counts, as `GET /api/threads/:id/token-usage` answers them.
 * axe-core: no serious or critical violation.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium, screenshot } from "../support/browser.js";
import type { TestServer } from "../support/server-harness.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

describe.skipIf(!HAVE_CHROMIUM)("console: token usage", () => {
  let scripted: ScriptedServer;
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureConsoleBuilt();
    scripted = await startScriptedServer(() => ({
      text: "Counted.",
      usage: { promptTokens: 1200, completionTokens: 34 },
    }));
    server = scripted.t;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await scripted?.close();
  });

  const send = async (text: string) => {
    await page.locator("#composer-input").fill(text);
    await page.locator("#composer-input").press("Enter");
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
  };

  it("shows the thread's and the latest run's usage after each run, matching the API", async () => {
    await page.goto(`${server.url}/chat`);
    await send("count my tokens");
    const panel = page.getByTestId("token-usage");
    await panel
      .getByTestId("token-usage-thread")
      .filter({ hasText: "1,234 tokens (1,200 in, 34 out, 1 model call)" })
      .waitFor();

    await send("and again");
    await panel
      .getByTestId("token-usage-thread")
      .filter({ hasText: "2,468 tokens (2,400 in, 68 out, 2 model calls)" })
      .waitFor();
    expect(await panel.getByTestId("token-usage-run").textContent()).toBe(
      "Latest run1,234 tokens (1,200 in, 34 out, 1 model call)",
    );

    const threadId = decodeURIComponent(new URL(page.url()).pathname.split("/")[2] ?? "");
    const api = (await (await fetch(`${server.url}/api/threads/${threadId}/token-usage`)).json()) as {
      total_tokens: number;
      llm_call_count: number;
    };
    expect(api).toMatchObject({ total_tokens: 2468, llm_call_count: 2 });
    await screenshot(page, "chat-token-usage");

    await expectAxeClean(page, "chat with token usage");
  });
});
