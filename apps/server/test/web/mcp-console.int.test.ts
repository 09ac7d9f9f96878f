/**
 * The console's MCP page in Debian's Chromium (playwright-core) against the real
 * server: `extensions_config.json` names the real `server-everything` (stdio) and
 * a server that fails to start. The page lists both with their state (the
 * failing one with its reason), the working one's tools, and its switch writes
 * the file through `PUT /api/mcp/config` (the masked secret survives). axe-core:
 * no serious or critical violation.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium, screenshot } from "../support/browser.js";
import { everythingStdioEntry } from "../support/everything-mcp.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

describe.skipIf(!HAVE_CHROMIUM)("console: MCP", () => {
  let s: ScriptedServer;
  let browser: Browser;
  let page: Page;
  let file: string;

  beforeAll(async () => {
    ensureConsoleBuilt();
    s = await startScriptedServer(() => ({ text: "ok" }), "extensions_config: ./extensions_config.json\n");
    file = path.join(s.dir, "extensions_config.json");
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          everything: everythingStdioEntry({ env: { API_TOKEN: "s3cret" } }),
          broken: { type: "stdio", command: process.execPath, args: ["-e", "process.exit(2)"] },
        },
      }),
    );
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("lists servers with state, error and tools; the switch disables a server through the API", async () => {
    await page.goto(`${s.t.url}/mcp`);
    const everything = page.getByTestId("mcp-server-everything");
    await everything.waitFor();
    expect(await everything.getAttribute("data-state")).toBe("connected");
    const broken = page.getByTestId("mcp-server-broken");
    expect(await broken.getAttribute("data-state")).toBe("failed");
    expect(await broken.textContent()).toContain("Skipping MCP server 'broken'");

    await everything.locator("summary").click();
    await everything.getByText("everything_echo").waitFor();

    await expectAxeClean(page, "MCP page");
    await screenshot(page, "mcp-page");

    await page.getByLabel("Enable everything").click();
    await page.getByTestId("mcp-message").getByText("everything disabled.").waitFor();
    await page.locator("[data-testid=mcp-server-everything][data-state=disabled]").waitFor();
    const onDisk = JSON.parse(await readFile(file, "utf8")) as {
      mcpServers: Record<string, { enabled?: boolean; env?: Record<string, string> }>;
    };
    expect(onDisk.mcpServers["everything"]).toMatchObject({ enabled: false, env: { API_TOKEN: "s3cret" } });

    await page.getByLabel("Enable everything").click();
    await page.locator("[data-testid=mcp-server-everything][data-state=connected]").waitFor();
  });
});
