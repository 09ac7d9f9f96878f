/**
 * The console with accounts (`auth.enabled`), in Debian's Chromium
 * (playwright-core) against the real server and its demo model: the first-run
 * page creating the administrator, sign-in (a wrong password gets the server's
 * text), the user menu (email, sign out, account), changing the password, API
 * keys (created and shown once, listed, working for a program, revoked), the
 * administrator adding a second user, who signs in in a fresh browser context
 * and sees none of the first user's threads, has no Users page, and is signed
 * out when disabled. Every page: axe-core without a serious or critical
 * violation, no page error, every request to this origin.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import path from "node:path";
import { SqliteAccountStore } from "@deerflow/runtime/sqlite";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium, screenshot } from "../support/browser.js";
import { tempDirs } from "../support/temp-dir.js";
import { HOST_BASH_CONFIG, startServer, type TestServer } from "../support/server-harness.js";

const ADMIN = { email: "ada@example.com", password: "analytical-engine-1843" };
const NEW_ADMIN_PASSWORD = "difference-engine-1822";
const BOB = { email: "bob@example.com", password: "bobs-own-passphrase-7" };

describe.skipIf(!HAVE_CHROMIUM)("console: accounts", () => {
  const temp = tempDirs();
  let server: TestServer;
  let dir: string;
  let browser: Browser;
  let adminContext: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const offOrigin: string[] = [];
  /** Requests the console sent with an Authorization header (it must use its session cookie only). */
  const withKey: string[] = [];
  let adminThread = "";

  /** A browser context that records page errors and any request leaving the server's origin. */
  async function newContext(): Promise<BrowserContext> {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    ctx.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol !== "data:" && url.protocol !== "blob:" && url.origin !== server.url)
        offOrigin.push(request.url());
      if (request.headers()["authorization"] !== undefined) withKey.push(request.url());
    });
    // The 404 the second user gets for the administrator's thread is expected: useStream's own history
    // fetch leaves it as an unhandled rejection (SDK 1.15), and the browser logs the failed request.
    const theForbiddenThread = (text: string) => adminThread !== "" && text.includes(`Thread ${adminThread} not found`);
    ctx.on("page", (p) => {
      p.on("pageerror", (err) => {
        if (!theForbiddenThread(err.message)) pageErrors.push(`pageerror: ${err.message}`);
      });
      p.on("console", (msg) => {
        // 4xx answers are expected here (a wrong password, the session probe before sign-in).
        const text = msg.text();
        if (msg.type() === "error" && !/status of 4\d\d/.test(text) && !theForbiddenThread(text)) pageErrors.push(text);
      });
    });
    return ctx;
  }

  async function signIn(target: Page, email: string, password: string): Promise<void> {
    const form = target.getByTestId("login-page");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password").fill(password);
    await form.getByRole("button", { name: "Sign in" }).click();
  }

  async function openUserMenu(target: Page): Promise<void> {
    await target.getByRole("button", { name: /Account menu of/ }).click();
  }

  beforeAll(async () => {
    ensureConsoleBuilt();
    dir = await temp.make("deerflow-accounts-console-");
    server = await startServer(dir, `${HOST_BASH_CONFIG}auth:\n  enabled: true\n`);
    browser = await launchChromium();
    adminContext = await newContext();
    // A key left in the tab by API-key mode (set before every page load) is never sent with accounts on.
    await adminContext.addInitScript(
      // Not on about:blank, where storage is refused.
      "if (location.protocol === 'http:') sessionStorage.setItem('deerflow:api-key', 'stale-key-from-api-key-mode')",
    );
    page = await adminContext.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.server.close({ drain: false });
    await temp.cleanup();
  });

  it("reports accounts in /api/info; the API needs a session or a key", async () => {
    expect(await (await fetch(`${server.url}/api/info`)).json()).toMatchObject({ accounts: true });
    expect((await fetch(`${server.url}/api/threads/search`, { method: "POST", body: "{}" })).status).toBe(401);
  });

  it("first run: creates the administrator, who is then signed in", async () => {
    await page.goto(`${server.url}/threads`);
    const setup = page.getByTestId("setup-page");
    await setup.waitFor();
    await expectAxeClean(page, "setup page");
    await screenshot(page, "accounts-setup");
    // The navigation waits for a signed-in user.
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);

    await setup.getByLabel("Email").fill(ADMIN.email);
    await setup.getByLabel("Password", { exact: true }).fill(ADMIN.password);
    await setup.getByLabel("Repeat the password").fill("something-else-entirely");
    await setup.getByRole("button", { name: "Create administrator" }).click();
    expect(await page.getByTestId("login-error").textContent()).toBe("The two passwords differ.");

    await setup.getByLabel("Repeat the password").fill(ADMIN.password);
    await setup.getByRole("button", { name: "Create administrator" }).click();
    // Signed in on the page that was asked for.
    await page.getByRole("heading", { name: "Threads", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/threads");
    expect(await page.getByTestId("user-menu").textContent()).toContain(ADMIN.email);
    expect(await (await fetch(`${server.url}/api/v1/auth/setup-status`)).json()).toMatchObject({ needs_setup: false });
  });

  it("user menu: email and role, sign out; a wrong password gets the server's text; signing in again", async () => {
    await openUserMenu(page);
    const panel = page.locator("#user-menu-panel");
    expect(await panel.textContent()).toContain(`Signed in as ${ADMIN.email} (admin)`);
    await expectAxeClean(page, "user menu open");
    await page.keyboard.press("Escape");
    expect(await panel.isHidden()).toBe(true);

    await openUserMenu(page);
    await panel.getByRole("button", { name: "Sign out" }).click();
    const login = page.getByTestId("login-page");
    await login.waitFor();
    expect(await page.context().cookies()).not.toContainEqual(expect.objectContaining({ name: "access_token" }));
    await expectAxeClean(page, "login page");
    await screenshot(page, "accounts-login");

    await signIn(page, ADMIN.email, "not-the-password");
    expect(await page.getByTestId("login-error").textContent()).toBe("Incorrect email or password");

    // Signing in at /login (where the SSO callback sends refusals) lands in the chat.
    await page.goto(`${server.url}/login`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByTestId("user-menu").waitFor();
    await page.waitForURL(`${server.url}/chat`);
    const session = (await page.context().cookies()).find((c) => c.name === "access_token");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  });

  it("adminThread: the administrator chats (a thread of theirs, created through the console's SDK calls with the CSRF header)", async () => {
    await page.goto(`${server.url}/chat`);
    await page.locator("#composer-input").fill("please list the workspace");
    await page.locator("#composer-input").press("Enter");
    await page.waitForSelector("[data-testid=run-status][data-outcome=done]");
    adminThread = decodeURIComponent(new URL(page.url()).pathname.split("/")[2] ?? "");
    expect(adminThread).toMatch(/^[\w-]+$/);
    expect(await page.getByTestId("message-ai").last().textContent()).toContain("Listed /mnt/user-data/workspace");
  });

  it("account: a wrong current password is refused; the password changes", async () => {
    await openUserMenu(page);
    await page.getByRole("link", { name: "Account and API keys" }).click();
    await page.getByRole("heading", { name: "Account", level: 1 }).waitFor();
    expect(await page.getByTestId("account-facts").innerText()).toMatch(new RegExp(`Email\\s+${ADMIN.email}`));
    await expectAxeClean(page, "account page");

    const form = page.getByTestId("password-form");
    await form.getByLabel("Current password").fill("not-the-password");
    await form.getByLabel("New password", { exact: true }).fill(NEW_ADMIN_PASSWORD);
    await form.getByLabel("Repeat the new password").fill(NEW_ADMIN_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    expect(await page.getByTestId("password-error").textContent()).toBe("Current password is incorrect");

    await form.getByLabel("Current password").fill(ADMIN.password);
    await form.getByRole("button", { name: "Change password" }).click();
    await page.getByTestId("password-done").waitFor();
    // This session was re-issued: the console still works.
    await page.reload();
    await page.getByRole("heading", { name: "Account", level: 1 }).waitFor();
  });

  it("API keys: created and shown once, listed, usable by a program, revoked", async () => {
    await page.goto(`${server.url}/account`);
    await page.getByTestId("no-api-keys").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("ci script");
    await page.getByLabel("Expires after (days, empty: never)").fill("30");
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByTestId("new-api-key-value");
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^dfk_/);
    await page.getByRole("button", { name: "Copy key" }).click();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(key);
    await expectAxeClean(page, "account page with a new key");
    await screenshot(page, "accounts-api-key");

    const row = page.getByTestId("api-key-row");
    expect(await row.count()).toBe(1);
    const rowText = await row.innerText();
    expect(rowText).toContain("ci script");
    expect(rowText).toContain(key.slice(0, 8));
    expect(rowText).not.toContain(key);

    // The key is a program's: it sees the administrator's thread.
    const asProgram = await fetch(`${server.url}/api/threads/${adminThread}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(asProgram.status).toBe(200);

    // Shown once: a reload lists the key without it.
    await page.reload();
    await row.waitFor();
    expect(await page.getByTestId("new-api-key").count()).toBe(0);
    expect(await page.locator("body").innerText()).not.toContain(key);

    await row.getByRole("button", { name: "Revoke “ci script”" }).click();
    await row.getByRole("button", { name: "Yes, revoke “ci script”" }).click();
    await page.getByTestId("api-keys-message").getByText("Revoked “ci script”.").waitFor();
    await page.getByTestId("no-api-keys").waitFor();
    const revoked = await fetch(`${server.url}/api/threads/${adminThread}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(revoked.status).toBe(401);
  });

  it("users: the administrator adds a second user; a duplicate gets the server's text", async () => {
    await openUserMenu(page);
    await page.getByRole("link", { name: "Users" }).click();
    await page.getByTestId("users-table").waitFor();
    expect(await page.getByTestId("user-row").count()).toBe(1);

    await page.getByLabel("Email").fill(BOB.email);
    await page.getByLabel("First password").fill(BOB.password);
    await page.getByLabel("Role", { exact: true }).selectOption("user");
    await page.getByRole("button", { name: "Add user" }).click();
    await page.getByTestId("users-message").getByText(`Added ${BOB.email} (user).`).waitFor();
    await page.locator(`[data-testid=user-row][data-email="${BOB.email}"]`).waitFor();
    expect(await page.getByTestId("users-table").locator("caption").textContent()).toBe("2 users");
    await expectAxeClean(page, "users page");
    await screenshot(page, "accounts-users");

    await page.getByLabel("Email").fill(BOB.email);
    await page.getByLabel("First password").fill(BOB.password);
    await page.getByRole("button", { name: "Add user" }).click();
    expect(await page.getByTestId("new-user-error").textContent()).toMatch(/already/i);

    // The server's refusals: deleting oneself; demoting the last administrator.
    const self = page.locator(`[data-testid=user-row][data-email="${ADMIN.email}"]`);
    await self.getByRole("button", { name: `Delete ${ADMIN.email}` }).click();
    await self.getByRole("button", { name: `Yes, delete ${ADMIN.email}` }).click();
    await self.getByRole("alert").getByText("You cannot delete your own account").waitFor();
    await self.getByLabel(`Role of ${ADMIN.email}`).selectOption("user");
    await self.getByRole("alert").getByText("The last active admin cannot be removed, demoted or disabled").waitFor();
    expect(await self.getByLabel(`Role of ${ADMIN.email}`).inputValue()).toBe("admin");
  });

  it("the second user, in a fresh browser, sees none of the administrator's threads and has no Users page", async () => {
    const bobContext = await newContext();
    const bob = await bobContext.newPage();
    await bob.goto(`${server.url}/threads`);
    await bob.getByTestId("login-page").waitFor();
    await signIn(bob, BOB.email, BOB.password);
    await bob.getByRole("heading", { name: "Threads", level: 1 }).waitFor();
    expect(await bob.getByTestId("user-menu").textContent()).toContain(BOB.email);
    await bob.getByRole("status").getByText("0 of 0 threads").waitFor();
    expect(await bob.locator(`[data-thread-id="${adminThread}"]`).count()).toBe(0);
    await expectAxeClean(bob, "threads page of the second user");

    // Straight to the administrator's thread: the server answers 404, and nothing of it shows.
    await bob.goto(`${server.url}/chat/${adminThread}`);
    await bob.locator("#composer-input").waitFor();
    await bob.getByRole("alert").first().waitFor();
    expect(await bob.getByTestId("messages").innerText()).not.toContain("Listed /mnt/user-data/workspace");

    await openUserMenu(bob);
    expect(await bob.locator("#user-menu-panel").textContent()).toContain(`${BOB.email} (user)`);
    expect(await bob.getByRole("link", { name: "Users" }).count()).toBe(0);
    await bob.goto(`${server.url}/users`);
    await bob.getByRole("alert").getByText("Only administrators manage users.").waitFor();

    // The second user's own thread; the administrator sees both, each with its owner.
    await bob.goto(`${server.url}/chat`);
    await bob.locator("#composer-input").fill("please list the workspace");
    await bob.locator("#composer-input").press("Enter");
    await bob.waitForSelector("[data-testid=run-status][data-outcome=done]");
    const bobThread = decodeURIComponent(new URL(bob.url()).pathname.split("/")[2] ?? "");
    await page.goto(`${server.url}/threads`);
    const ownerOf = (id: string) => page.locator(`[data-thread-id="${id}"] [data-testid=thread-owner]`);
    await ownerOf(bobThread).waitFor();
    expect(await ownerOf(bobThread).textContent()).toBe(BOB.email);
    expect(await ownerOf(adminThread).textContent()).toBe("you");
    await expectAxeClean(page, "threads page of the administrator");
    // The second user's list has no owner column (and only their own thread).
    await bob.goto(`${server.url}/threads`);
    await bob.locator(`[data-thread-id="${bobThread}"]`).waitFor();
    expect(await bob.getByTestId("thread-row").count()).toBe(1);
    expect(await bob.getByTestId("thread-owner").count()).toBe(0);

    // The administrator disables the second user: that browser's next API call (a page change, no
    // reload) brings the sign-in page back, saying the session ended; signing in is refused.
    await page.goto(`${server.url}/users`);
    const bobRow = page.locator(`[data-testid=user-row][data-email="${BOB.email}"]`);
    await bobRow.getByRole("button", { name: `Disable ${BOB.email}` }).click();
    await page.locator(`[data-testid=user-row][data-email="${BOB.email}"][data-disabled=true]`).waitFor();
    await bob.getByRole("link", { name: "Chat", exact: true }).click();
    await bob.getByTestId("session-expired").waitFor();
    await expectAxeClean(bob, "login page after the session ended");
    await signIn(bob, BOB.email, BOB.password);
    expect(await bob.getByTestId("login-error").textContent()).toBe("This account is disabled");
    await bobContext.close();
  });

  it("self-registration: a new account from the sign-in page is a plain user, signed in at once", async () => {
    const ctx = await newContext();
    const carol = await ctx.newPage();
    await carol.goto(`${server.url}/chat`);
    await carol.getByTestId("login-page").getByRole("button", { name: "Create an account" }).click();
    const form = carol.getByTestId("register-page");
    await form.waitFor();
    await expectAxeClean(carol, "register page");
    await form.getByLabel("Email").fill("carol@example.com");
    await form.getByLabel("Password", { exact: true }).fill("password");
    await form.getByLabel("Repeat the password").fill("password");
    await form.getByRole("button", { name: "Create account" }).click();
    // The server's password rules (8 characters, not a common password) speak for themselves.
    expect(await carol.getByTestId("login-error").textContent()).not.toBe("");
    await form.getByLabel("Password", { exact: true }).fill("carols-long-passphrase-3");
    await form.getByLabel("Repeat the password").fill("carols-long-passphrase-3");
    await form.getByRole("button", { name: "Create account" }).click();
    await carol.locator("#composer-input").waitFor();
    await openUserMenu(carol);
    expect(await carol.locator("#user-menu-panel").textContent()).toContain("carol@example.com (user)");

    // An account flagged needs_setup (DeerFlow's first-login flow; set here through a second
    // connection to the server's account store, the run store's SQLite file) is asked to choose its
    // email and password, which clears the flag.
    const accounts = new SqliteAccountStore({ path: path.join(dir, "data", "runs.sqlite") });
    try {
      const carolRecord = await accounts.getUserByEmail("carol@example.com");
      await accounts.updateUser(carolRecord?.userId ?? "missing", { needsSetup: true });
    } finally {
      await accounts.close();
    }
    await carol.reload();
    await carol.getByTestId("needs-setup-banner").getByRole("link", { name: "on the account page" }).click();
    const setupForm = carol.getByTestId("password-form");
    await setupForm.getByLabel("Email").fill("carol.smith@example.com");
    await setupForm.getByLabel("Current password").fill("carols-long-passphrase-3");
    await setupForm.getByLabel("New password", { exact: true }).fill("carols-newer-passphrase-4");
    await setupForm.getByLabel("Repeat the new password").fill("carols-newer-passphrase-4");
    await expectAxeClean(carol, "account setup");
    await setupForm.getByRole("button", { name: "Change password" }).click();
    await carol.getByTestId("password-done").waitFor();
    expect(await carol.getByTestId("needs-setup-banner").count()).toBe(0);
    expect(await carol.getByTestId("user-menu").textContent()).toContain("carol.smith@example.com");
    await ctx.close();
  });

  it('users: a page of 100, then "Show more users" lists the rest', async () => {
    // 100 more accounts, written straight into the server's account store (no bcrypt per user).
    const accounts = new SqliteAccountStore({ path: path.join(dir, "data", "runs.sqlite") });
    try {
      for (let i = 0; i < 100; i += 1)
        await accounts.createUser({
          email: `seed-${String(i).padStart(3, "0")}@example.com`,
          passwordHash: null,
          systemRole: "user",
        });
    } finally {
      await accounts.close();
    }
    const total = 100 + 3; // the administrator, the second user, the self-registered one
    await page.goto(`${server.url}/users`);
    await page.getByRole("button", { name: "Show more users" }).waitFor();
    expect(await page.getByTestId("user-row").count()).toBe(100);
    expect(await page.getByTestId("users-table").locator("caption").textContent()).toBe(`${total} users`);
    await page.getByRole("button", { name: "Show more users" }).click();
    await page
      .getByTestId("user-row")
      .nth(total - 1)
      .waitFor();
    expect(await page.getByTestId("user-row").count()).toBe(total);
    expect(await page.getByRole("button", { name: "Show more users" }).count()).toBe(0);
  });

  it("brute force: after five failures this address is locked out, the right password included, with the server's text", async () => {
    const ctx = await newContext();
    const p = await ctx.newPage();
    await p.goto(`${server.url}/chat`);
    await p.getByTestId("login-page").waitFor();
    const texts: string[] = [];
    for (let i = 0; i < 6 && !texts.includes("Too many login attempts. Try again later."); i += 1) {
      await signIn(p, ADMIN.email, `wrong-guess-${i}`);
      await p.getByTestId("login-error").waitFor();
      // Wait for this attempt's answer (the button is enabled again when it has come).
      await p.getByRole("button", { name: "Sign in" }).and(p.locator(":enabled")).waitFor();
      texts.push((await p.getByTestId("login-error").textContent()) ?? "");
    }
    expect(texts.at(-1)).toBe("Too many login attempts. Try again later.");
    expect(texts.slice(0, -1).every((t) => t === "Incorrect email or password")).toBe(true);
    await signIn(p, ADMIN.email, NEW_ADMIN_PASSWORD);
    await p.getByRole("button", { name: "Sign in" }).and(p.locator(":enabled")).waitFor();
    expect(await p.getByTestId("login-error").textContent()).toBe("Too many login attempts. Try again later.");
    expect(await p.getByTestId("user-menu").count()).toBe(0);
    await ctx.close();
  });

  it("no page error, no request left this origin, none carried an API key", () => {
    expect(pageErrors).toEqual([]);
    expect(offOrigin).toEqual([]);
    expect(withKey).toEqual([]);
  });
});
