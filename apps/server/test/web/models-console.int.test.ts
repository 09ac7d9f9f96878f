/**
 * The console's model features, in Debian's Chromium (playwright-core) against
 * the real server with two models on the scripted OpenAI-compatible endpoint:
 * the composer's model picker lists `GET /api/models` and the run it sends goes
 * to the picked model, with the thinking switch of a thinking model; a reasoning model's streamed `reasoning_content` shows as a folded
 * "Reasoning" section above the answer. axe-core: no serious or critical violation.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import { startScriptedOpenAI, type ScriptedOpenAI } from "@deerflow/agent/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium, screenshot } from "../support/browser.js";
import { tempDirs } from "../support/temp-dir.js";
import { twoModelsYaml } from "../support/two-models.js";
import { startServer, type TestServer } from "../support/server-harness.js";

describe.skipIf(!HAVE_CHROMIUM)("console: models", () => {
  const temp = tempDirs();
  let openai: ScriptedOpenAI;
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureConsoleBuilt();
    openai = await startScriptedOpenAI({
      script: (request) =>
        JSON.stringify(request.messages.at(-1) ?? {}).includes("think first")
          ? { reasoning: ["Otters ", "hold ", "hands."], text: "Because they sleep in water." }
          : { text: `Answered by ${request.model ?? "?"}.` },
    });
    const yaml = twoModelsYaml(
      openai.baseURL,
      "    when_thinking_enabled: { extra_body: { thinking: { type: enabled } } }",
    );
    server = await startServer(await temp.make("deerflow-models-console-"), yaml);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.server.close({ drain: false });
    await openai?.close();
    await temp.cleanup();
  });

  const send = async (text: string) => {
    await page.locator("#composer-input").fill(text);
    await page.locator("#composer-input").press("Enter");
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
  };

  it("the model picker lists the server's models and the run goes to the picked one", async () => {
    await page.goto(`${server.url}/chat`);
    const picker = page.getByTestId("model-picker");
    await picker.locator("option").nth(1).waitFor({ state: "attached" });
    expect(await picker.locator("option").allTextContents()).toEqual(["Main model", "Deep thinker"]);
    expect(await picker.inputValue()).toBe("main");

    await send("who answers by default?");
    await page.getByTestId("messages").getByText("Answered by scripted-main.").waitFor();

    await picker.selectOption("thinker");
    await send("and now?");
    await page.getByTestId("messages").getByText("Answered by scripted-thinker.").waitFor();
    expect(openai.requests.map((r) => r.model)).toEqual(["scripted-main", "scripted-thinker"]);
    expect(openai.requests.map((r) => r.body["thinking"])).toEqual([undefined, { type: "enabled" }]);

    // The thinking switch shows for the thinking model only; off sends DeerFlow's derived disable.
    const toggle = page.getByTestId("thinking-toggle");
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await send("quickly, no thinking");
    await page.getByTestId("messages").getByText("Answered by scripted-thinker.").nth(1).waitFor();
    expect(openai.requests.at(-1)?.body["thinking"]).toEqual({ type: "disabled" });
    await picker.selectOption("main");
    expect(await toggle.count()).toBe(0);
    await screenshot(page, "chat-model-picker");

    await expectAxeClean(page, "chat with the model picker");
  });

  it("shows a reasoning model's reasoning folded above the answer", async () => {
    await page.goto(`${server.url}/chat`);
    await page.getByTestId("model-picker").selectOption("thinker");
    await send("think first: why do otters hold hands?");
    const answer = page.getByTestId("message-ai").filter({ hasText: "Because they sleep in water." });
    const reasoning = answer.getByTestId("reasoning");
    await reasoning.waitFor();
    // Folded: the summary shows, the text is hidden until opened.
    expect(await reasoning.getAttribute("open")).toBeNull();
    expect(await answer.getByText("Otters hold hands.").isVisible()).toBe(false);
    // Above the answer text.
    expect(
      await answer.evaluate((el) => el.innerText.indexOf("Reasoning") < el.innerText.indexOf("Because they sleep")),
    ).toBe(true);
    await reasoning.locator("summary").click();
    await answer.getByText("Otters hold hands.").waitFor();
    await screenshot(page, "chat-reasoning");

    await expectAxeClean(page, "chat with reasoning");
  });
});
