/**
 * SSO in the console, in Debian's Chromium against the real server and a local
 * OpenID provider (`startFakeOidcIssuer`): the sign-in page offers the
 * provider's button; clicking it goes through the provider and back, signed
 * in on the page that was asked for; a refused login comes back to the sign-in
 * page with a message saying why. axe-core finds no serious or critical
 * violation on the sign-in page with SSO and with the refusal; no page error.
 *
 * Without /usr/bin/chromium the suite is skipped (as the main console suite is).
 */
import { startFakeOidcIssuer, type FakeOidcIssuer } from "@deerflow/gateway/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_CHROMIUM, ensureConsoleBuilt, expectAxeClean, launchChromium, screenshot } from "../support/browser.js";
import { tempDirs } from "../support/temp-dir.js";
import { oidcAuthYaml, oidcServerEnv } from "../support/oidc-config.js";
import { HOST_BASH_CONFIG, startServer, type TestServer } from "../support/server-harness.js";

describe.skipIf(!HAVE_CHROMIUM)("console: SSO login", () => {
  const temp = tempDirs();
  let idp: FakeOidcIssuer;
  let server: TestServer;
  let browser: Browser;
  const pageErrors: string[] = [];

  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on("pageerror", (err) => pageErrors.push(`pageerror: ${err.message}`));
    page.on("console", (msg) => {
      // The session probe before sign-in answers 401.
      if (msg.type() === "error" && !/status of 4\d\d/.test(msg.text())) pageErrors.push(msg.text());
    });
    return { context, page };
  }

  beforeAll(async () => {
    ensureConsoleBuilt();
    idp = await startFakeOidcIssuer({ user: { sub: "kc-7", email: "grace@example.com", email_verified: true } });
    const yaml = `${HOST_BASH_CONFIG}${oidcAuthYaml(idp)}`;
    server = await startServer(await temp.make("deerflow-sso-console-"), yaml, {
      env: oidcServerEnv(idp),
    });
    // The first administrator exists (else the console shows the first-run page instead of sign-in).
    const init = await fetch(`${server.url}/api/v1/auth/initialize`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@example.com", password: "analytical-engine-1843" }),
    });
    expect(init.status).toBe(201);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.server.close({ drain: false });
    await idp?.close();
    await temp.cleanup();
  });

  it("signs in through the provider and lands on the page asked for", async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.url}/threads`);
    const sso = page.getByTestId("login-sso");
    await sso.waitFor();
    await expectAxeClean(page, "sign-in with SSO");
    await screenshot(page, "sso-login");

    await sso.getByRole("link", { name: "Sign in with Company SSO" }).click();
    await page.getByRole("heading", { name: "Threads", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/threads");
    expect(await page.getByTestId("user-menu").textContent()).toContain("grace@example.com");
    const session = (await context.cookies()).find((c) => c.name === "access_token");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a refused login comes back to sign-in with the reason", async () => {
    idp.user = { sub: "kc-8", email: "eve@elsewhere.org", email_verified: true };
    const { context, page } = await newPage();
    await page.goto(`${server.url}/`);
    await page.getByTestId("login-sso").getByRole("link", { name: "Sign in with Company SSO" }).click();
    const error = page.getByTestId("sso-error");
    await error.waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await error.textContent()).toMatch(/not allowed/i);
    expect((await context.cookies()).some((c) => c.name === "access_token")).toBe(false);
    await expectAxeClean(page, "sign-in with an SSO refusal");

    // The password still works from there, and the console leaves the /login address.
    const form = page.getByTestId("login-page");
    await form.getByLabel("Email").fill("admin@example.com");
    await form.getByLabel("Password").fill("analytical-engine-1843");
    await form.getByRole("button", { name: "Sign in" }).click();
    await page.getByTestId("user-menu").waitFor();
    await page.waitForURL((url) => url.pathname !== "/login");
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
