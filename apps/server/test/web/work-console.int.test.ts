/**
 * The console's plan-mode todo list and agent-made thread titles, in Debian's Chromium
 * (playwright-core) against the real server with a model on the scripted
 * OpenAI-compatible endpoint: with "Plan mode" on, the run is sent with
 * `context.is_plan_mode`, the agent's `write_todos` list shows while the run is still
 * going, and the title `title.model_name`'s model gave the thread replaces the first
 * message in the heading and the sidebar; a file attached in the composer is uploaded into
 * the thread and sent as `additional_kwargs.files`, so the model reads it in
 * `<current_uploads>` while the conversation shows what the user wrote. axe-core: no
 * serious or critical violation.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import type { RecordedRequest, ScriptedOpenAI, ScriptStep } from "@deerflow/agent/testing";
import fs from "node:fs/promises";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium, screenshot } from "../support/browser.js";
import { tempDirs } from "../support/temp-dir.js";
import type { TestServer } from "../support/server-harness.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

const TITLE = "Otter Report Plan";
const todos = [
  { content: "Collect otter facts", status: "completed" },
  { content: "Write the report", status: "in_progress" },
];

const lastText = (r: RecordedRequest): string => {
  const content = r.messages.at(-1)?.["content"];
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
};

function script(request: RecordedRequest): ScriptStep {
  if (lastText(request).startsWith("Generate a concise title")) return { text: TITLE };
  const answered = request.messages.some((m) => m["role"] === "tool");
  if (request.toolNames.includes("write_todos") && !answered)
    return { toolCalls: [{ name: "write_todos", args: { todos }, id: "call_todos" }] };
  // Slow final answer: the plan must be on screen while the run is still going.
  return { text: "The report is underway.", delayMs: 1500 };
}

describe.skipIf(!HAVE_CHROMIUM)("console: plan-mode todos and thread titles", () => {
  const temp = tempDirs();
  let scripted: ScriptedServer;
  let openai: ScriptedOpenAI;
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureConsoleBuilt();
    scripted = await startScriptedServer(script, "title:\n  model_name: main\n");
    ({ openai, t: server } = scripted);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await scripted?.close();
    await temp.cleanup();
  });

  it("shows the todo list live in a plan-mode run, then the agent's title in the heading and the thread list", async () => {
    await page.goto(`${server.url}/chat`);
    await page.getByLabel("Plan mode").check();
    await page.locator("#composer-input").fill("Please write a report about otters");
    await page.locator("#composer-input").press("Enter");

    const list = page.getByTestId("todos");
    await list.waitFor();
    // Still running: the list arrived from the values stream, not from a reload.
    expect(await page.getByTestId("run-status").getAttribute("data-outcome")).toBe("running");
    expect(await list.getByRole("heading").textContent()).toBe("Plan (1 of 2 done)");
    expect(await list.getByTestId("todo").allTextContents()).toEqual([
      "Collect otter facts done",
      "Write the report in progress",
    ]);
    expect(openai.requests.find((r) => r.toolNames.length > 0)?.toolNames).toContain("write_todos");

    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
    await page
      .locator("#page-title")
      .filter({ hasText: new RegExp(`^${TITLE}$`) })
      .waitFor();
    await page
      .locator(".thread-link-title")
      .filter({ hasText: new RegExp(`^${TITLE}$`) })
      .waitFor();
    await screenshot(page, "chat-plan-mode-todos");

    await expectAxeClean(page, "chat in plan mode with todos");
  });

  it("sends no plan mode when the switch is off", async () => {
    await page.goto(`${server.url}/chat`);
    const before = openai.requests.length;
    await page.locator("#composer-input").fill("hello");
    await page.locator("#composer-input").press("Enter");
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
    const agentCalls = openai.requests.slice(before).filter((r) => !lastText(r).startsWith("Generate a concise title"));
    expect(agentCalls.length).toBeGreaterThan(0);
    for (const r of agentCalls) expect(r.toolNames).not.toContain("write_todos");
    expect(await page.getByTestId("todos").count()).toBe(0);
  });

  it("attaches a file in the composer: uploaded into the thread, announced to the model, not shown in the message", async () => {
    await page.goto(`${server.url}/chat`);
    const file = path.join(await temp.make("attach-"), "otters.csv");
    await fs.writeFile(file, "name,river\nLutra,Thames\n");
    await page.setInputFiles("#composer-attach", file);
    await page.getByTestId("attached-files").getByText("otters.csv").waitFor();
    const threadId = decodeURIComponent(new URL(page.url()).pathname.split("/")[2] ?? "");
    expect(threadId).not.toBe("");
    const before = openai.requests.length;
    await page.locator("#composer-input").fill("What is in the file?");
    await page.locator("#composer-input").press("Enter");
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
    expect(await page.getByTestId("attached-files").count()).toBe(0);
    const sent = openai.requests.slice(before).find((r) => !lastText(r).startsWith("Generate a concise title"));
    const user = JSON.stringify(sent?.messages.filter((m) => m["role"] === "user").at(-1)?.["content"]);
    expect(user).toContain("- otters.csv (0.0 KB)");
    expect(user).toContain("Path: /mnt/user-data/uploads/otters.csv");
    expect(await page.getByTestId("message-human").last().locator(".text").textContent()).toBe("What is in the file?");
    const listed = await server.client.threads.get(threadId);
    expect(listed.thread_id).toBe(threadId);
    await screenshot(page, "chat-attached-file");
    await expectAxeClean(page, "chat with an attached file");
  });
});
