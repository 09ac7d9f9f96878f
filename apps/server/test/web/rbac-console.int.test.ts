/**
 * The console under `authorization:` (DeerFlow's RBAC), in Debian's Chromium
 * (playwright-core) against the real server: the model picker of a `user`
 * whose role allows one model lists that model alone and the run goes to it,
 * while an admin's picker lists both. axe-core: no serious or critical violation.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import { startScriptedOpenAI, type ScriptedOpenAI } from "@deerflow/agent/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium } from "../support/browser.js";
import { tempDirs } from "../support/temp-dir.js";
import { twoModelsYaml } from "../support/two-models.js";
import { startServer, type TestServer } from "../support/server-harness.js";

const KEYS = { alice: "alice-rbac-console-key", root: "root-rbac-console-key" } as const;

describe.skipIf(!HAVE_CHROMIUM)("console: roles (authorization:)", () => {
  const temp = tempDirs();
  let openai: ScriptedOpenAI;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    ensureConsoleBuilt();
    openai = await startScriptedOpenAI({ script: (request) => ({ text: `Answered by ${request.model ?? "?"}.` }) });
    const yaml = `${twoModelsYaml(openai.baseURL)}
server:
  api_keys:
    - { key: ${KEYS.alice}, user_id: alice }
    - { key: ${KEYS.root}, user_id: root, admin: true }
authorization:
  enabled: true
  provider:
    use: rbac
    config:
      roles:
        admin: {}
        user:
          models: { allow: [main] }
`;
    server = await startServer(await temp.make("deerflow-rbac-console-"), yaml);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.server.close({ drain: false });
    await openai?.close();
    await temp.cleanup();
  });

  /** A page whose tab already holds `key` (the console's API-key mode keeps it in sessionStorage). */
  const pageWithKey = async (key: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(`sessionStorage.setItem("deerflow:api-key", ${JSON.stringify(key)});`);
    return context.newPage();
  };

  it("a user's model picker lists only the models the role allows, and the run goes to it", async () => {
    const page = await pageWithKey(KEYS.alice);
    await page.goto(`${server.url}/chat`);
    const picker = page.getByTestId("model-picker");
    await picker.locator("option").first().waitFor({ state: "attached" });
    expect(await picker.locator("option").allTextContents()).toEqual(["Main model"]);
    await page.locator("#composer-input").fill("who answers?");
    await page.locator("#composer-input").press("Enter");
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
    await page.getByTestId("messages").getByText("Answered by scripted-main.").waitFor();
    expect(openai.requests.map((r) => r.model)).toEqual(["scripted-main"]);
    await expectAxeClean(page, "chat with a role-limited model picker");
    await page.context().close();
  });

  it("an admin's model picker lists every model", async () => {
    const page = await pageWithKey(KEYS.root);
    await page.goto(`${server.url}/chat`);
    const picker = page.getByTestId("model-picker");
    await picker.locator("option").nth(1).waitFor({ state: "attached" });
    expect(await picker.locator("option").allTextContents()).toEqual(["Main model", "Deep thinker"]);
    await page.context().close();
  });
});
