/**
 * The console's Agents page, in Debian's Chromium (playwright-core) against the
 * real server with accounts on, `agents_api.enabled`, and its model on the
 * scripted OpenAI-compatible endpoint: creating a custom agent (model, SOUL,
 * skills), the server's refusals (a taken name, an invalid one), editing its
 * SOUL, chatting with it (the run carries `context.agent_name`: the model's
 * system prompt holds the agent's HTML-escaped SOUL), deleting it. A server
 * with the agents API off shows its 403 text. axe-core on every page.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium, screenshot } from "../support/browser.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";
import { tempDirs } from "../support/temp-dir.js";
import { HOST_BASH_CONFIG, startServer, type TestServer } from "../support/server-harness.js";

const ADMIN = { email: "grace@example.com", password: "compiler-hopper-1952" };
const SOUL = "You are Otto, a guide to otters & beavers. Never <invent> facts.";
const EDITED_SOUL = "You are Otto, the terse otter guide. Answer in one sentence.";

/** The text of an OpenAI chat message's content (a string or text parts). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((p) => (typeof p === "object" && p !== null ? String((p as { text?: unknown }).text ?? "") : ""))
      .join("");
  return "";
}

describe.skipIf(!HAVE_CHROMIUM)("console: agents", () => {
  let s: ScriptedServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  /** `GET /api/agents/<name>` with this browser's session (status and body). */
  async function agentOnServer(name: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await page.request.get(`${s.t.url}/api/agents/${name}`);
    return { status: res.status(), body: res.status() === 200 ? ((await res.json()) as Record<string, unknown>) : {} };
  }

  beforeAll(async () => {
    ensureConsoleBuilt();
    s = await startScriptedServer(
      () => ({ text: "Otters hold hands while they sleep." }),
      "auth:\n  enabled: true\n  local:\n    allow_registration: false\nagents_api:\n  enabled: true\n",
    );
    // The first administrator, as a program would create it (no Origin header).
    const init = await fetch(`${s.t.url}/api/v1/auth/initialize`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    expect(init.status).toBe(201);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on("page", (p) => {
      p.on("pageerror", (err) => pageErrors.push(err.message));
      p.on("console", (msg) => {
        if (msg.type() === "error" && !/status of 4\d\d/.test(msg.text())) pageErrors.push(msg.text());
      });
    });
    page = await context.newPage();
    await page.goto(`${s.t.url}/agents`);
    const login = page.getByTestId("login-page");
    await login.waitFor();
    // Self-registration is off on this server: the sign-in page offers none.
    expect(await login.getByRole("button", { name: "Create an account" }).count()).toBe(0);
    await login.getByLabel("Email").fill(ADMIN.email);
    await login.getByLabel("Password").fill(ADMIN.password);
    await login.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("creates an agent with a model and a SOUL; a taken or invalid name gets the server's text", async () => {
    await page.getByTestId("no-agents").waitFor();
    expect(await page.getByRole("link", { name: "Agents" }).getAttribute("aria-current")).toBe("page");
    await expectAxeClean(page, "agents page, empty");

    const form = page.getByTestId("agent-form");
    await form.getByLabel("Name").fill("Otter-Guide");
    await form.getByLabel("Name").blur();
    await form.getByTestId("agent-name-note").getByText("“Otter-Guide” is available.").waitFor();
    await form.getByLabel("Description").fill("Answers questions about otters");
    await form.getByLabel("Model").selectOption("main");
    await form.getByLabel("Temperature").fill("0.3");
    await form.getByLabel("SOUL (the agent’s persona, Markdown)").fill(SOUL);
    await form.getByRole("button", { name: "Create agent" }).click();
    await page.getByTestId("agents-message").getByText("Agent “otter-guide” created.").waitFor();
    const row = page.locator("[data-testid=agent-row][data-agent=otter-guide]");
    await row.waitFor();
    expect(await row.innerText()).toMatch(/otter-guide\s+Answers questions about otters\s+main/);
    const stored = await agentOnServer("otter-guide");
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      name: "otter-guide",
      model: "main",
      soul: SOUL,
      tool_groups: null,
      skills: null,
      model_settings: { temperature: 0.3 },
    });
    await expectAxeClean(page, "agents page with an agent");
    await screenshot(page, "agents-page");

    await form.getByLabel("Name").fill("otter-guide");
    await form.getByLabel("Name").blur();
    await form.getByTestId("agent-name-note").getByText("“otter-guide” is already taken.").waitFor();
    await form.getByRole("button", { name: "Create agent" }).click();
    expect(await page.getByTestId("agent-form-error").textContent()).toBe("Agent 'otter-guide' already exists");

    await form.getByLabel("Name").fill("otters and beavers");
    await form.getByRole("button", { name: "Create agent" }).click();
    await page
      .getByTestId("agent-form-error")
      .getByText("Invalid agent name 'otters and beavers'", { exact: false })
      .waitFor();
  });

  it("edits the agent's SOUL and description", async () => {
    await page
      .locator("[data-testid=agent-row][data-agent=otter-guide]")
      .getByRole("link", { name: "Edit otter-guide" })
      .click();
    await page.getByRole("heading", { name: "Agent otter-guide", level: 1 }).waitFor();
    const form = page.getByTestId("agent-form");
    const soul = form.getByLabel("SOUL (the agent’s persona, Markdown)");
    expect(await soul.inputValue()).toBe(SOUL);
    expect(await form.getByLabel("Model").inputValue()).toBe("main");
    await expectAxeClean(page, "agent editor");
    await soul.fill(EDITED_SOUL);
    await form.getByLabel("Description").fill("Terse otter facts");
    await form.getByRole("button", { name: "Save agent" }).click();
    await page.getByTestId("agents-message").getByText("Saved “otter-guide”.").waitFor();
    expect((await agentOnServer("otter-guide")).body).toMatchObject({
      soul: EDITED_SOUL,
      description: "Terse otter facts",
    });
    await page.reload();
    expect(await page.getByLabel("SOUL (the agent’s persona, Markdown)").inputValue()).toBe(EDITED_SOUL);
  });

  it("chats with the agent: the run's context names it and the model's system prompt holds its SOUL", async () => {
    await page.getByRole("link", { name: "Chat with otter-guide" }).click();
    await page.getByRole("heading", { name: "New chat with otter-guide", level: 1 }).waitFor();
    // The picker starts on the agent's own model (nothing is sent for it).
    const picker = page.getByTestId("model-picker");
    expect(await picker.inputValue()).toBe("");
    expect(await picker.locator("option:checked").textContent()).toBe("The agent’s model");
    const before = s.openai.requests.length;
    await page.locator("#composer-input").fill("Tell me one otter fact.");
    await page.locator("#composer-input").press("Enter");
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
    const [, agents, name, chat, threadId] = new URL(page.url()).pathname.split("/");
    expect([agents, name, chat]).toEqual(["agents", "otter-guide", "chat"]);
    expect(await page.getByTestId("message-ai").last().textContent()).toContain("Otters hold hands while they sleep.");
    expect(await page.getByTestId("chat-agent").textContent()).toBe("Agent otter-guide");
    await expectAxeClean(page, "chat with an agent");

    const runs = (await (await page.request.get(`${s.t.url}/api/threads/${threadId}/runs`)).json()) as Array<{
      kwargs?: { context?: Record<string, unknown> };
    }>;
    expect(runs[0]?.kwargs?.context).toMatchObject({ agent_name: "otter-guide" });
    // The agent's model is not overridden by the console (no model_name until one is picked).
    expect(runs[0]?.kwargs?.context).not.toHaveProperty("model_name");

    const systemPrompts = s.openai.requests
      .slice(before)
      .map((r) => r.messages.find((m) => m["role"] === "system"))
      .map((m) => contentText(m?.["content"]));
    expect(systemPrompts.some((p) => p.includes(`<soul>\n${EDITED_SOUL}\n</soul>`))).toBe(true);

    // The thread remembers its agent: from the Threads page, and from a bare /chat/<id>, it reopens the agent's chat.
    await page.getByRole("link", { name: "Threads", exact: true }).click();
    await page.locator(`[data-thread-id="${threadId}"]`).getByRole("link").first().click();
    await page.waitForURL(`**/agents/otter-guide/chat/${threadId}`);
    await page.goto(`${s.t.url}/chat/${threadId}`);
    await page.waitForURL(`**/agents/otter-guide/chat/${threadId}`);
    await page.getByTestId("chat-agent").waitFor();
  });

  it("deletes the agent after a confirmation", async () => {
    await page.getByRole("link", { name: "Agents", exact: true }).click();
    const row = page.locator("[data-testid=agent-row][data-agent=otter-guide]");
    // "Keep" takes the confirmation back and deletes nothing.
    await row.getByRole("button", { name: "Delete otter-guide" }).click();
    await row.getByRole("button", { name: "Keep" }).click();
    expect(await row.getByRole("button", { name: "Yes, delete otter-guide" }).count()).toBe(0);
    expect((await agentOnServer("otter-guide")).status).toBe(200);
    await row.getByRole("button", { name: "Delete otter-guide" }).click();
    await row.getByRole("button", { name: "Yes, delete otter-guide" }).click();
    await page.getByTestId("agents-message").getByText("Deleted “otter-guide”.").waitFor();
    await page.getByTestId("no-agents").waitFor();
    expect((await agentOnServer("otter-guide")).status).toBe(404);
  });

  it("sends tool groups, an empty skills whitelist, thinking, reasoning effort and max tokens as set", async () => {
    await page.goto(`${s.t.url}/agents`);
    const form = page.getByTestId("agent-form");
    await form.getByLabel("Name").fill("scout");
    await form.getByLabel("Tool groups").fill("web, file:read");
    await form.getByLabel("Only the skills checked below (none checked: no skills)").check();
    await form.getByTestId("agent-skill-choices").waitFor();
    await form.getByLabel("Thinking").selectOption("false");
    await form.getByLabel("Reasoning effort").selectOption("low");
    await form.getByLabel("Max tokens").fill("256");
    await form.getByRole("button", { name: "Create agent" }).click();
    await page.locator("[data-testid=agent-row][data-agent=scout]").waitFor();
    const stored = await agentOnServer("scout");
    expect(stored.body).toMatchObject({
      tool_groups: ["web", "file:read"],
      skills: [],
      thinking_enabled: false,
      reasoning_effort: "low",
      model_settings: { max_tokens: 256 },
      model: null,
    });
    // The editor shows what is stored.
    await page.goto(`${s.t.url}/agents/scout`);
    const editor = page.getByTestId("agent-form");
    expect(await editor.getByLabel("Tool groups").inputValue()).toBe("web, file:read");
    expect(await editor.getByLabel("Only the skills checked below (none checked: no skills)").isChecked()).toBe(true);
    expect(await editor.getByLabel("Thinking").inputValue()).toBe("false");
    expect(await editor.getByLabel("Model").inputValue()).toBe("");
    // With the session cookie alone a write is refused (CSRF); with the double-submit header it goes through.
    const bare = await page.request.delete(`${s.t.url}/api/agents/scout`);
    expect(bare.status()).toBe(403);
    expect(JSON.stringify(await bare.json())).toContain("CSRF token missing. Include X-CSRF-Token header.");
    const csrf = (await page.context().cookies()).find((c) => c.name === "csrf_token")?.value ?? "";
    const deleted = await page.request.delete(`${s.t.url}/api/agents/scout`, { headers: { "x-csrf-token": csrf } });
    expect(deleted.status()).toBe(204);
  });

  it("edits the user's profile (USER.md); a blank one is removed", async () => {
    await page.goto(`${s.t.url}/agents`);
    const profile = page.getByTestId("user-profile");
    const text = profile.getByLabel("What your agents may know about you (Markdown)");
    await text.waitFor();
    expect(await text.inputValue()).toBe("");
    await text.fill("# Grace\nWrites compilers; prefers short answers.");
    await profile.getByRole("button", { name: "Save profile" }).click();
    await page.getByTestId("user-profile-message").getByText("Profile saved.").waitFor();
    const stored = await page.request.get(`${s.t.url}/api/user-profile`);
    expect(await stored.json()).toEqual({ content: "# Grace\nWrites compilers; prefers short answers." });
    await expectAxeClean(page, "agents page with the profile");
    await page.reload();
    expect(await text.inputValue()).toBe("# Grace\nWrites compilers; prefers short answers.");

    await text.fill("   ");
    await profile.getByRole("button", { name: "Save profile" }).click();
    await page.getByTestId("user-profile-message").getByText("Profile cleared.").waitFor();
    expect(await (await page.request.get(`${s.t.url}/api/user-profile`)).json()).toEqual({ content: null });
  });

  it("no page error", () => {
    expect(pageErrors).toEqual([]);
  });

  describe("with the agents API off (and no accounts)", () => {
    const temp = tempDirs();
    let plain: TestServer;

    beforeAll(async () => {
      plain = await startServer(await temp.make("deerflow-agents-off-"), HOST_BASH_CONFIG);
    });

    afterAll(async () => {
      await plain?.server.close({ drain: false });
      await temp.cleanup();
    });

    it("shows the server's 403 text", async () => {
      const p = await browser.newPage();
      await p.goto(`${plain.url}/agents`);
      const refusal = p.getByTestId("agents-disabled");
      await refusal.waitFor();
      expect(await refusal.textContent()).toBe(
        "Custom-agent management API is disabled. Set agents_api.enabled=true to expose agent and user-profile routes over HTTP.",
      );
      // No accounts: no user menu, and the account pages say why.
      expect(await p.getByTestId("user-menu").count()).toBe(0);
      await p.goto(`${plain.url}/account`);
      await p.getByRole("heading", { name: "No accounts on this server", level: 1 }).waitFor();
      await expectAxeClean(p, "agents page, API off");
      await p.close();
    });
  });
});
