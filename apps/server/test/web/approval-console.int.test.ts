/**
 * The console's approval card, in Debian's Chromium (playwright-core) against the
 * real server with a model on the scripted OpenAI-compatible endpoint and
 * `guardrails.require_approval: [write_file]`: the run stops before `write_file`,
 * the card shows the tool and its arguments, and the decision sent from it
 * resumes the run (edited arguments run; a rejection reaches the agent as the
 * call's error result). axe-core: no serious or critical violation.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium, screenshot } from "../support/browser.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

const FILE = "/mnt/user-data/outputs/note.md";
type StateMessage = { type: string; content: unknown; status?: string; tool_calls?: { args: unknown }[] };

function script(request: RecordedRequest): ScriptStep {
  const answered = request.messages.some((m) => m["role"] === "tool");
  if (!answered)
    return { toolCalls: [{ name: "write_file", args: { path: FILE, content: "# Otters\n" }, id: "call_write" }] };
  return { text: "Finished with the note." };
}

describe.skipIf(!HAVE_CHROMIUM)("console: approval card", () => {
  let s: ScriptedServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureConsoleBuilt();
    s = await startScriptedServer(script, "guardrails:\n  require_approval: [write_file]\n");
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    // Starting the server and Chromium takes seconds more when the machine is busy.
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  /** Sends a message and waits for the card; returns the thread id. */
  async function askForWrite(): Promise<string> {
    await page.goto(`${s.t.url}/chat`);
    await page.locator("#composer-input").fill("Please save a note about otters");
    await page.locator("#composer-input").press("Enter");
    await page.getByTestId("approval").waitFor();
    return decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1) ?? "");
  }

  const messagesOf = async (threadId: string): Promise<StateMessage[]> =>
    (await s.t.client.threads.getState<{ messages: StateMessage[] }>(threadId)).values.messages;

  it("shows the tool and its arguments, and runs the call with the arguments edited in the card", async () => {
    const threadId = await askForWrite();
    const card = page.getByTestId("approval");
    expect(await card.getByRole("group").locator("legend").textContent()).toBe("Tool write_file");
    expect(JSON.parse((await card.getByLabel("Arguments of write_file").textContent()) ?? "")).toEqual({
      path: FILE,
      content: "# Otters\n",
    });
    expect(
      await card.getByRole("radio").evaluateAll((els) => els.map((e) => (e.parentElement?.textContent ?? "").trim())),
    ).toEqual(["Approve", "Edit the arguments", "Reject"]);
    expect(await page.getByTestId("run-status").textContent()).toBe(
      "The run is waiting for your decision on the tool call above.",
    );
    await screenshot(page, "chat-approval-card");
    await expectAxeClean(page, "chat with an approval card");
    expect((await messagesOf(threadId)).filter((m) => m.type === "tool")).toEqual([]);

    await card.getByLabel("Edit the arguments").check();
    await card
      .getByLabel("Arguments to run write_file with (JSON)")
      .fill(JSON.stringify({ path: FILE, content: "# Sea otters\n" }));
    await card.getByRole("button", { name: "Send decision" }).click();
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
    expect(await page.getByTestId("approval").count()).toBe(0);

    const messages = await messagesOf(threadId);
    expect(messages.find((m) => m.type === "ai")?.tool_calls?.[0]?.args).toEqual({
      path: FILE,
      content: "# Sea otters\n",
    });
    expect(messages.filter((m) => m.type === "tool").map((m) => [m.content, m.status])).toEqual([["OK", "success"]]);
    expect(messages.at(-1)?.content).toBe("Finished with the note.");
  });

  it("refuses arguments that are not a JSON object, then sends a rejection with its reason", async () => {
    const threadId = await askForWrite();
    const card = page.getByTestId("approval");
    await card.getByLabel("Edit the arguments").check();
    await card.getByLabel("Arguments to run write_file with (JSON)").fill("not json");
    await card.getByRole("button", { name: "Send decision" }).click();
    expect(await card.getByRole("alert").textContent()).toBe("The arguments of write_file must be a JSON object.");

    await card.getByLabel("Reject").check();
    await card.getByLabel("Reason for the agent (optional)").fill("Not now, thanks.");
    await card.getByRole("button", { name: "Send decision" }).click();
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
    const tools = (await messagesOf(threadId)).filter((m) => m.type === "tool");
    expect(tools.map((m) => [m.content, m.status])).toEqual([["Not now, thanks.", "error"]]);
  });
});
