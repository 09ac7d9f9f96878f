/**
 * The console's Memory page, in Debian's Chromium (playwright-core) against
 * the real server: summaries and facts (category, confidence) as
 * `/api/memory` returns them; adding, editing and deleting a fact; DeerFlow's
 * refusal text for a duplicate; export as a downloaded memory.json and import
 * of a file; clearing. axe-core: no serious or critical violation.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium, screenshot } from "../support/browser.js";
import { tempDirs } from "../support/temp-dir.js";
import { HOST_BASH_CONFIG, startServer, type TestServer } from "../support/server-harness.js";

const SEED = {
  version: "1.0",
  user: {
    workContext: { summary: "Builds compilers in Rust." },
    topOfMind: { summary: "Shipping the 2.0 release." },
  },
  history: {},
  facts: [
    {
      id: "fact_00000000000000000000000000000001",
      content: "Prefers metric units",
      category: "preference",
      confidence: 0.9,
      createdAt: "2026-11-01T00:00:00.000Z",
      updatedAt: "2026-11-01T00:00:00.000Z",
      revision: 1,
      source: "manual",
    },
    {
      id: "fact_00000000000000000000000000000002",
      content: "Lives in Lisbon",
      category: "context",
      confidence: 0.75,
      createdAt: "2026-11-01T00:00:00.000Z",
      updatedAt: "2026-11-01T00:00:00.000Z",
      revision: 1,
      source: "thread-1",
    },
  ],
};

describe.skipIf(!HAVE_CHROMIUM)("console: memory", () => {
  const temp = tempDirs();
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api${route}`, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    return (await res.json()) as { facts: { id: string; content: string; confidence: number; category: string }[] };
  };

  beforeAll(async () => {
    ensureConsoleBuilt();
    server = await startServer(await temp.make("deerflow-memory-console-"), HOST_BASH_CONFIG);
    await api("POST", "/memory/import", SEED);
    browser = await launchChromium();
    page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
    ).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.server.close({ drain: false });
    await temp.cleanup();
  });

  it("shows the summaries and the facts with category and confidence", async () => {
    await page.goto(`${server.url}/memory`);
    await page.getByTestId("memory-facts").waitFor();
    expect(await page.getByRole("link", { name: "Memory" }).getAttribute("aria-current")).toBe("page");
    const summaries = page.getByTestId("memory-summaries");
    expect(await summaries.innerText()).toContain("Builds compilers in Rust.");
    expect(await summaries.innerText()).toContain("Shipping the 2.0 release.");
    const rows = page.getByTestId("memory-fact");
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(/Prefers metric units\s+preference\s+0\.90\s+manual/);
    expect(await rows.nth(1).innerText()).toMatch(/Lives in Lisbon\s+context\s+0\.75\s+thread-1/);
    await screenshot(page, "memory-page");
    await expectAxeClean(page, "memory page");
  });

  it("adds, edits and deletes facts; a duplicate gets DeerFlow's refusal", async () => {
    await page.goto(`${server.url}/memory`);
    const addForm = page.locator(".card").filter({ hasText: "Add a fact" });
    await addForm.getByLabel("Fact").fill("Writes tests first");
    await addForm.getByLabel("Category").selectOption("behavior");
    await addForm.getByLabel("Confidence").fill("0.8");
    await addForm.getByRole("button", { name: "Add fact" }).click();
    await page.getByTestId("memory-message").getByText("Fact added.").waitFor();
    await page.getByRole("rowheader", { name: "Writes tests first" }).waitFor();

    await addForm.getByLabel("Fact").fill("prefers METRIC units");
    await addForm.getByRole("button", { name: "Add fact" }).click();
    await page.getByTestId("memory-error").getByText("A fact with the same content already exists.").waitFor();

    await page.getByRole("button", { name: "Edit “Lives in Lisbon”" }).click();
    const editing = page.getByTestId("memory-fact-editing");
    await editing.getByLabel("Fact").fill("Lives in Porto");
    await editing.getByLabel("Confidence").fill("0.95");
    await editing.getByRole("button", { name: "Save" }).click();
    await page.getByRole("rowheader", { name: "Lives in Porto" }).waitFor();
    const porto = (await api("GET", "/memory")).facts.find((f) => f.content === "Lives in Porto");
    expect(porto).toMatchObject({ confidence: 0.95, category: "context" });

    await page.getByRole("button", { name: "Delete “Writes tests first”" }).click();
    await page.getByTestId("memory-message").getByText("Deleted “Writes tests first”.").waitFor();
    expect((await api("GET", "/memory")).facts.map((f) => f.content).sort()).toEqual([
      "Lives in Porto",
      "Prefers metric units",
    ]);
    await expectAxeClean(page, "memory page");
  });

  it("exports memory.json, imports a file and clears everything", async () => {
    await page.goto(`${server.url}/memory`);
    await page.getByRole("button", { name: "Export memory" }).click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("memory-export-link").click(),
    ]);
    expect(download.suggestedFilename()).toBe("memory.json");
    const exported = JSON.parse(await readFile(await download.path(), "utf8")) as { facts: { content: string }[] };
    expect(exported.facts.map((f) => f.content).sort()).toEqual(["Lives in Porto", "Prefers metric units"]);

    await page.getByLabel("Memory file (replaces your memory)").setInputFiles({
      name: "seed.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(SEED)),
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByTestId("memory-message").getByText("Imported seed.json.").waitFor();
    await page.getByRole("rowheader", { name: "Lives in Lisbon" }).waitFor();
    expect(await page.getByTestId("memory-fact").count()).toBe(2);

    await page.getByRole("button", { name: "Clear memory…" }).click();
    await page.getByRole("button", { name: "Yes, clear memory" }).click();
    await page.getByTestId("memory-no-facts").waitFor();
    await page.getByTestId("memory-no-summaries").waitFor();
    expect((await api("GET", "/memory")).facts).toEqual([]);
    await expectAxeClean(page, "memory page");
  });
});
