/**
 * The web console end to end: the built console (apps/web/dist) served by the real server
 * (createServer: demo model, host bash, a temp data dir and skills root) and driven in Debian's
 * Chromium with playwright-core.
 *
 * Covered: the production build (no source maps, nothing off-origin) and its caching; page load
 * time (measured and reported, not asserted); the demo banner; a full demo chat turn with a
 * streamed tool call; a slow turn whose tool call shows while it runs; Stop (the run ends
 * interrupted); reload during a run (the page rejoins and shows the rest); subagent progress;
 * threads (search, rename, delete); files (upload, list, download); skills (refused uploads with
 * their reason and findings, an accepted upload listed enabled, disable/enable, an invalid edit
 * shown inline, a valid edit in the history, rollback); keyboard use; axe-core on every page
 * (no serious or critical violation); the API-key prompt of a server with authentication.
 * Screenshots of each page go to apps/server/test-artifacts/screenshots/.
 *
 * Slow turns are deterministic, as in the SDK e2e test: the demo model runs the quoted bash
 * command, which waits until the test writes a gate file into the thread's workspace.
 *
 * Without /usr/bin/chromium the suite is skipped with a warning, except under CI=true, where it fails.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { packSkillDirectory } from "@deerflow/skills";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_LABEL } from "../../src/models/demo/planner.js";
import { CONSOLE_CSP } from "../../src/server/static-console.js";
import { storedZip } from "../support/zip.js";
import { tempDirs, writeFiles } from "../support/temp-dir.js";
import { eventually, startServer, type TestServer } from "../support/server-harness.js";
import {
  ARTIFACTS_DIR,
  CHROMIUM_PATH,
  HAVE_CHROMIUM,
  WEB_DIST,
  ensureConsoleBuilt,
  evaluate,
  expectNoBlockingViolations,
  launchChromium,
  runAxe,
  screenshot,
  type AxeViolation,
} from "../support/browser.js";

const IN_CI = process.env["CI"] === "true" || process.env["CI"] === "1";
const BUILTIN_SKILLS = path.resolve(import.meta.dirname, "../../../../skills/public");
const CONFIG = `
sandbox:
  allow_host_bash: true
storage:
  data_dir: ./data
skills:
  path: ./skills
extensions_config: ./extensions_config.json
`;
const API_KEY = "console-test-key-0123456789";

const SKILL_NAME = "zebra-census";
const SKILL_MD = `---
name: ${SKILL_NAME}
description: Counts zebras in a herd census report. Use when the user asks for a zebra census.
---

# Zebra census

1. Tally every zebra by stripe pattern.
2. Report the herd size.
`;

/** Off-origin URLs allowed as plain strings inside the minified bundle (never fetched: CSP and the request log prove it). */
const ALLOWED_URL_STRINGS = [
  /^http:\/\/www\.w3\.org\//, // XML namespaces (React DOM)
  /^https:\/\/react\.dev\/errors\//, // React's minified error links
  /^https:\/\/docs\.langchain\.com\//, // LangChain error links in message classes
  /^http:\/\/localhost(:\d+)?$/, // the SDK's default apiUrl (the console always passes its own)
  /^https?:\/\/$/, // protocol checks
];

if (!HAVE_CHROMIUM) {
  const message = `web console browser tests: ${CHROMIUM_PATH} is missing (apt-get install chromium)`;
  if (IN_CI) {
    describe("web console in Chromium", () => {
      it("needs Debian's Chromium under CI", () => {
        throw new Error(`${message}; .ci/run installs it when run as root with apt`);
      });
    });
  } else {
    // oxlint-disable-next-line no-console -- a loud skip on the developer's terminal is this line's job
    console.warn(`\n*** SKIPPED: ${message} ***\n`);
  }
}

type SkillRow = { name: string; enabled: boolean; category: string };

/** A request the demo model turns into a bash call that waits for `gate` in the workspace. */
function gatedRequest(gate: string): string {
  return `run \`touch ${gate}.started; until [ -e ${gate} ]; do sleep 0.1; done; echo opened ${gate}\``;
}

describe.skipIf(!HAVE_CHROMIUM)("web console in Chromium", () => {
  const temp = tempDirs();
  let dir: string;
  let server: TestServer;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const offOrigin: string[] = [];
  const pageErrors: string[] = [];
  const axeReport: Record<string, AxeViolation[]> = {};
  let chatThread = "";

  const workspaceOf = (threadId: string) =>
    path.join(dir, "data", "users", "default", "threads", threadId, "user-data", "workspace");
  const openGate = (threadId: string, gate: string) => writeFiles(workspaceOf(threadId), { [gate]: "open\n" });
  const started = (threadId: string, gate: string) =>
    eventually(async () => (existsSync(path.join(workspaceOf(threadId), `${gate}.started`)) ? true : undefined));
  const currentThread = () => decodeURIComponent(new URL(page.url()).pathname.split("/")[2] ?? "");
  const runStatus = (threadId: string) => server.client.runs.list(threadId).then((runs) => runs[0]?.status);

  function watch(ctx: BrowserContext): void {
    ctx.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol === "data:" || url.protocol === "blob:") return;
      if (url.origin !== origin) offOrigin.push(request.url());
    });
    ctx.on("page", (p) => {
      p.on("pageerror", (err) => pageErrors.push(err.message));
      // Console errors other than the expected 4xx answers (refused uploads): CSP violations, React errors...
      p.on("console", (msg) => {
        if (
          msg.type() === "error" &&
          !/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())
        )
          pageErrors.push(msg.text());
      });
    });
  }

  /** axe on the current page: records the result; no serious or critical violation. */
  async function checkA11y(name: string, target: Page = page): Promise<void> {
    const violations = await runAxe(target);
    axeReport[name] = violations;
    expectNoBlockingViolations(violations, name);
  }

  async function send(text: string): Promise<void> {
    await page.locator("#composer-input").fill(text);
    await page.locator("#composer-input").press("Enter");
  }

  const outcome = (value: string) => page.waitForSelector(`[data-testid=run-status][data-outcome=${value}]`);

  async function listSkills(): Promise<SkillRow[]> {
    return ((await (await fetch(`${origin}/api/skills`)).json()) as { skills: SkillRow[] }).skills;
  }

  async function chooseFile(selector: string, name: string, content: Buffer | string): Promise<void> {
    const file = path.join(dir, "uploads-src", name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
    await page.setInputFiles(selector, file);
  }

  beforeAll(async () => {
    ensureConsoleBuilt();
    dir = await temp.make("deerflow-console-");
    await fs.cp(BUILTIN_SKILLS, path.join(dir, "skills", "public"), { recursive: true });
    await fs.mkdir(path.join(dir, "skills", "custom"), { recursive: true });
    server = await startServer(dir, CONFIG, { deployment: { heartbeatMs: 200 } });
    origin = server.url;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    watch(context);
    page = await context.newPage();
  });

  afterAll(async () => {
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    writeFileSync(path.join(ARTIFACTS_DIR, "axe-report.json"), `${JSON.stringify(axeReport, null, 2)}\n`);
    await browser?.close();
    await server?.server.close({ drain: false });
    await temp.cleanup();
  });

  it("ships a production build: no source maps, nothing loaded from elsewhere", async () => {
    const files = readdirSync(WEB_DIST, { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    const html = readFileSync(path.join(WEB_DIST, "index.html"), "utf8");
    const refs = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1] ?? "");
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref, ref).toMatch(/^(\/assets\/|data:)/);
    for (const file of files.filter((f) => /\.(js|css)$/.test(f))) {
      const text = readFileSync(path.join(WEB_DIST, file), "utf8");
      expect(text, file).not.toContain("sourceMappingURL");
      // React's development build and Vite's dev client are not shipped.
      expect(text, file).not.toMatch(/react-refresh|@vite\/client|__vite__injectQuery|Download the React DevTools/);
      const urls = [...new Set([...text.matchAll(/https?:\/\/[^\s"'`)<>\\]*/g)].map((m) => m[0]))];
      expect(
        urls.filter((u) => !ALLOWED_URL_STRINGS.some((re) => re.test(u))),
        file,
      ).toEqual([]);
    }
    const index = await fetch(`${origin}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get("cache-control")).toBe("no-cache");
    expect(index.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    const asset = refs.find((r) => r.endsWith(".js")) ?? "";
    const js = await fetch(`${origin}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get("cache-control")).toContain("immutable");
    // Single-page fallback for pages, 404 for missing files, the API untouched.
    expect((await fetch(`${origin}/threads`)).headers.get("content-type")).toContain("text/html");
    expect((await fetch(`${origin}/assets/missing-file.js`)).status).toBe(404);
    expect((await fetch(`${origin}/api/nope`)).status).toBe(404);
    expect(await (await fetch(`${origin}/api/info`)).json()).toMatchObject({
      demoModel: true,
      authRequired: false,
      defaultModel: "demo",
    });
  });

  it("loads in under a second on loopback (measured and reported) and shows the demo banner", async ({ annotate }) => {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    watch(fresh);
    const cold = await fresh.newPage();
    const t0 = Date.now();
    await cold.goto(`${origin}/chat`);
    await cold.locator("#composer-input").waitFor();
    const readyMs = Date.now() - t0;
    const nav = await evaluate<{
      responseEnd: number;
      domContentLoadedEventEnd: number;
      loadEventEnd: number;
      transferSize: number;
    }>(cold, `performance.getEntriesByType("navigation")[0].toJSON()`);
    const resources = await evaluate<Array<{ name: string; transferSize: number; duration: number }>>(
      cold,
      `performance.getEntriesByType("resource").map((r) => ({ name: r.name, transferSize: r.transferSize, duration: r.duration }))`,
    );
    const report = {
      composerReadyMs: readyMs,
      responseEndMs: Math.round(nav.responseEnd),
      domContentLoadedMs: Math.round(nav.domContentLoadedEventEnd),
      loadEventMs: Math.round(nav.loadEventEnd),
      underOneSecond: readyMs < 1000,
      resources: resources.map((r) => ({
        name: new URL(r.name).pathname,
        bytes: r.transferSize,
        ms: Math.round(r.duration),
      })),
    };
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    writeFileSync(path.join(ARTIFACTS_DIR, "load-time.json"), `${JSON.stringify(report, null, 2)}\n`);
    // oxlint-disable-next-line no-console -- the measurement printed for the developer is this line's job
    console.log(
      `[web console] cold load: composer ready in ${readyMs} ms (DOMContentLoaded ${report.domContentLoadedMs} ms, load ${report.loadEventMs} ms)`,
    );
    await annotate(
      `cold load: composer ready in ${readyMs} ms; DOMContentLoaded ${report.domContentLoadedMs} ms; load event ${report.loadEventMs} ms`,
    );

    const banner = cold.getByTestId("demo-banner");
    expect(await banner.isVisible()).toBe(true);
    expect(await banner.textContent()).toContain("Offline demo model");
    expect(await cold.title()).toBe("Chat · DeerFlow console");
    await fresh.close();
  });

  it("chat: a full demo turn streams its tool call and renders the final answer (sent with Enter)", async ({
    annotate,
  }) => {
    await page.goto(`${origin}/chat`);
    await page.locator("#composer-input").waitFor();
    // A timeline of what the page showed, to prove the tool call appeared while the run streamed.
    await page.evaluate(`(() => {
      window.__timeline = [];
      const snap = () => {
        const status = document.querySelector("[data-testid=run-status]")?.getAttribute("data-outcome");
        const calls = [...document.querySelectorAll("[data-testid=tool-call]")].map((e) => e.getAttribute("data-tool-name") + ":" + e.getAttribute("data-status"));
        const texts = [...document.querySelectorAll("[data-testid=message-ai] .text")].map((e) => (e.textContent || "").length);
        window.__timeline.push({ status, calls, texts });
      };
      new MutationObserver(snap).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    })()`);
    await send("please list the workspace");
    await outcome("done");
    chatThread = currentThread();
    expect(chatThread).toMatch(/^[\w-]+$/);

    const timeline = await evaluate<Array<{ status: string; calls: string[]; texts: number[] }>>(
      page,
      "window.__timeline",
    );
    expect(timeline.some((s) => s.status === "running" && s.calls.some((c) => c.startsWith("ls:")))).toBe(true);
    // Token streaming: how many sizes the answers showed while the run went on (reported; how
    // tokens batch into renders depends on timing).
    const lengths = new Set(timeline.filter((s) => s.status === "running").map((s) => s.texts.join(",")));
    await annotate(`answer text rendered in ${lengths.size} steps while streaming`);

    const call = page.locator("[data-testid=tool-call][data-tool-name=ls]");
    expect(await call.getAttribute("data-status")).toBe("done");
    expect(await call.textContent()).toContain("/mnt/user-data/workspace");
    const answer = (await page.getByTestId("message-ai").last().textContent()) ?? "";
    expect(answer).toContain(DEMO_LABEL);
    expect(answer).toContain("Listed /mnt/user-data/workspace");
    expect(await page.getByTestId("message-human").allTextContents()).toEqual(["Youplease list the workspace"]);
    expect(await page.getByTestId("run-status").textContent()).toBe("Answer complete.");
    // The thread got its title from the first message, and the sidebar lists it.
    await page
      .locator("#page-title")
      .filter({ hasText: /^please list the workspace$/ })
      .waitFor();
    expect(await page.locator(`.sidebar a[aria-current=page]`).textContent()).toContain("please list the workspace");
  });

  it("chat: a second turn writes a report: file-write tool calls and the artifact", async () => {
    await send("please write a short report about otters");
    await outcome("done");
    expect(await page.locator("[data-testid=tool-call][data-tool-name=write_file]").getAttribute("data-status")).toBe(
      "done",
    );
    expect(await page.locator("[data-testid=tool-call][data-tool-name=write_file] .tool-kind").textContent()).toBe(
      "File write",
    );
    await page.locator(".artifacts a", { hasText: "demo-report.md" }).waitFor();
    await checkA11y("chat");
    await screenshot(page, "chat");
  });

  it("chat: a slow tool call shows while the run is still going; the rest streams in when it ends", async () => {
    await page.getByTestId("new-chat").click();
    await page.waitForURL(`${origin}/chat`);
    await send(gatedRequest("gate-stream"));
    await page.waitForURL(/\/chat\/[\w-]+$/);
    const threadId = currentThread();
    await started(threadId, "gate-stream");
    const bash = page.locator("[data-testid=tool-call][data-tool-name=bash]");
    await bash.waitFor();
    expect(await bash.getAttribute("data-status")).toBe("running…");
    expect(await bash.locator(".tool-kind").textContent()).toBe("Sandbox command");
    expect(await page.getByTestId("run-status").getAttribute("data-outcome")).toBe("running");
    expect(await page.getByRole("button", { name: "Stop" }).isEnabled()).toBe(true);
    await openGate(threadId, "gate-stream");
    await outcome("done");
    expect(await bash.getAttribute("data-status")).toBe("done");
    expect(await page.getByTestId("tool-result").last().textContent()).toContain("opened gate-stream");
    expect(await page.getByTestId("message-ai").last().textContent()).toContain(DEMO_LABEL);
  });

  it("chat: Stop cancels a slow run; the UI says so and the run is interrupted", async () => {
    await page.getByTestId("new-chat").click();
    await send(gatedRequest("gate-cancel"));
    await page.waitForURL(/\/chat\/[\w-]+$/);
    const threadId = currentThread();
    await started(threadId, "gate-cancel");
    await page.locator("[data-testid=tool-call][data-tool-name=bash]").waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    await outcome("cancelled");
    expect(await page.getByTestId("run-status").textContent()).toContain("Run cancelled");
    await eventually(async () => ((await runStatus(threadId)) === "interrupted" ? true : undefined));
    // The thread is usable again.
    await send("Hello after the stop");
    await outcome("done");
    expect(await page.getByTestId("message-ai").last().textContent()).toContain('You said: "Hello after the stop"');
  });

  it("chat: a reload during a run rejoins it and shows the rest when it ends", async () => {
    await page.getByTestId("new-chat").click();
    await send(gatedRequest("gate-rejoin"));
    await page.waitForURL(/\/chat\/[\w-]+$/);
    const threadId = currentThread();
    await started(threadId, "gate-rejoin");
    await page.locator("[data-testid=tool-call][data-tool-name=bash]").waitFor();
    const runsBefore = await server.client.runs.list(threadId);
    expect(runsBefore.map((r) => r.status)).toEqual(["running"]);

    await page.reload();
    await page
      .getByTestId("run-status")
      .filter({ hasText: /^Rejoined a run in progress/ })
      .waitFor();
    const bash = page.locator("[data-testid=tool-call][data-tool-name=bash]");
    await bash.waitFor();
    expect(await bash.getAttribute("data-status")).toBe("running…");
    expect(await page.getByTestId("message-human").count()).toBe(1);

    await openGate(threadId, "gate-rejoin");
    await outcome("done");
    expect(await page.getByTestId("tool-result").last().textContent()).toContain("opened gate-rejoin");
    expect(await page.getByTestId("message-ai").last().textContent()).toContain("opened gate-rejoin");
    // Rejoining never started a second run.
    expect((await server.client.runs.list(threadId)).map((r) => [r.run_id, r.status])).toEqual([
      [runsBefore[0]?.run_id, "success"],
    ]);
  });

  it("chat: subagent progress (task_started … task_completed) is listed as it happens", async () => {
    await page.getByTestId("new-chat").click();
    await send("research otters and beavers in parallel");
    await outcome("done");
    const tasks = page.getByTestId("subagent-task");
    expect(await tasks.count()).toBe(2);
    expect(
      await tasks.evaluateAll((els) =>
        els.map((e) => (e as unknown as { dataset: { status: string } }).dataset.status),
      ),
    ).toEqual(["completed", "completed"]);
    expect(await page.getByTestId("subagent-tasks").textContent()).toMatch(/otters[\s\S]*beavers/);
    expect(await page.locator("[data-testid=tool-call][data-tool-name=task]").count()).toBe(2);
  });

  it("keyboard: Tab reaches the composer and then Send; Shift+Enter adds a line, Enter sends", async () => {
    // A fresh load: focus starts at the top of the document.
    await page.goto(`${origin}/chat`);
    await page.locator("#composer-input").waitFor();
    const order: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      await page.keyboard.press("Tab");
      const id = await evaluate<string>(
        page,
        `(() => { const e = document.activeElement; return e ? (e.id || e.getAttribute("data-testid") || (e.textContent || "").trim().slice(0, 30) || e.tagName) : ""; })()`,
      );
      order.push(id);
      if (id === "composer-input") break;
    }
    expect(order[0]).toBe("Skip to main content");
    expect(order).toContain("Chat");
    expect(order).toContain("new-chat");
    expect(order.at(-1)).toBe("composer-input");
    await page.keyboard.type("first line");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("second line");
    expect(await page.locator("#composer-input").inputValue()).toBe("first line\nsecond line");
    await page.keyboard.press("Tab");
    expect(await evaluate<string>(page, "document.activeElement.textContent")).toBe("Send");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Enter");
    await outcome("done");
    expect(await page.getByTestId("message-human").last().textContent()).toBe("Youfirst line\nsecond line");
    expect(await page.locator("#composer-input").inputValue()).toBe("");
  });

  it("threads: search, rename (metadata.title), delete with confirmation, open in the chat", async () => {
    await page.getByRole("link", { name: "Threads", exact: true }).click();
    await page.waitForURL(`${origin}/threads`);
    await page.getByTestId("threads-table").waitFor();
    expect(await page.evaluate("document.activeElement?.id")).toBe("page-title");
    const rows = page.getByTestId("thread-row");
    expect(await rows.count()).toBeGreaterThanOrEqual(6);

    await page.getByLabel("Search threads").fill("list the workspace");
    await eventually(async () => ((await rows.count()) === 1 ? true : undefined));
    expect(await rows.first().getAttribute("data-thread-id")).toBe(chatThread);

    await page.getByRole("button", { name: "Rename please list the workspace" }).click();
    const title = page.getByLabel("New title for please list the workspace");
    await title.fill("Workspace tour");
    await title.press("Enter");
    await page.getByRole("status").filter({ hasText: "Renamed to “Workspace tour”." }).waitFor();
    expect((await server.client.threads.get(chatThread)).metadata).toMatchObject({ title: "Workspace tour" });
    await page.getByLabel("Search threads").fill("tour");
    await eventually(async () =>
      (await rows.count()) === 1 && (await rows.first().textContent())?.includes("Workspace tour") ? true : undefined,
    );
    await page.getByLabel("Search threads").fill("");

    // Delete the "Hello after the stop" thread (confirmation step first).
    await page.getByLabel("Search threads").fill("gate-cancel");
    await eventually(async () => ((await rows.count()) === 1 ? true : undefined));
    const doomed = (await rows.first().getAttribute("data-thread-id")) ?? "";
    await rows
      .first()
      .getByRole("button", { name: /^Delete / })
      .click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await eventually(async () => ((await rows.count()) === 0 ? true : undefined));
    await expect(server.client.threads.get(doomed)).rejects.toMatchObject({ status: 404 });
    await page.getByLabel("Search threads").fill("");
    await checkA11y("threads");
    await screenshot(page, "threads");

    await page.getByRole("link", { name: "Workspace tour" }).click();
    await page.waitForURL(`${origin}/chat/${chatThread}`);
    await page.locator("[data-testid=tool-call][data-tool-name=ls]").waitFor();
    expect(await page.locator("#page-title").textContent()).toBe("Workspace tour");
  });

  it("files: the thread's outputs, an upload made in the page, downloads", async () => {
    await page.getByRole("link", { name: "Files of this thread" }).click();
    await page.waitForURL(`${origin}/files/${chatThread}`);
    await page.getByTestId("outputs-table").waitFor();
    expect(await page.getByTestId("outputs-table").textContent()).toContain("demo-report.md");
    await chooseFile("#files-upload", "field-notes.txt", "otters hold hands while sleeping\n");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.getByTestId("files-status").filter({ hasText: "Successfully uploaded 1 file(s)" }).waitFor();
    const uploads = page.getByTestId("uploads-table");
    await uploads.filter({ hasText: "field-notes.txt" }).waitFor();
    expect(await uploads.textContent()).toContain("/mnt/user-data/uploads/field-notes.txt");
    const href = (await page.getByRole("link", { name: "Download field-notes.txt" }).getAttribute("href")) ?? "";
    expect(href).toBe(`/api/threads/${chatThread}/artifacts/mnt/user-data/uploads/field-notes.txt?download=true`);
    const downloaded = await fetch(`${origin}${href}`);
    expect(await downloaded.text()).toBe("otters hold hands while sleeping\n");
    expect(downloaded.headers.get("content-disposition")).toContain("attachment");
    const reportHref = (await page.getByRole("link", { name: "Download demo-report.md" }).getAttribute("href")) ?? "";
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download demo-report.md" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("demo-report.md");
    expect(reportHref).toContain("/artifacts/mnt/user-data/outputs/demo-report.md");
    // The agent sees the upload.
    expect(
      existsSync(
        path.join(dir, "data", "users", "default", "threads", chatThread, "user-data", "uploads", "field-notes.txt"),
      ),
    ).toBe(true);
    // The limits in force are shown before an upload, and a name neutralised by the gateway is reported.
    const limits = (await (await fetch(`${origin}/api/threads/${chatThread}/uploads/limits`)).json()) as {
      max_files: number;
    };
    expect(await page.getByTestId("upload-limits").textContent()).toContain(
      `Up to ${limits.max_files} files per upload`,
    );
    await chooseFile("#files-upload", "10:30 notes.txt", "meeting at half past ten\n");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.getByTestId("files-status").filter({ hasText: "10:30 notes.txt stored as 10_30 notes.txt" }).waitFor();
    await uploads.filter({ hasText: "/mnt/user-data/uploads/10_30 notes.txt" }).waitFor();
    await checkA11y("files");
    await screenshot(page, "files");
  });

  describe("skills", () => {
    it("lists skills with category, enabled state and description; disables and enables one", async () => {
      await page.getByRole("link", { name: "Skills", exact: true }).click();
      await page.waitForURL(`${origin}/skills`);
      await page.getByTestId("skills-table").waitFor();
      const builtins = await listSkills();
      expect(builtins.length).toBeGreaterThan(0);
      expect(await page.getByTestId("skill-row").count()).toBe(builtins.length);
      const first = builtins[0] as SkillRow;
      const row = page.locator(`[data-testid=skill-row][data-skill="${first.name}"]`);
      expect(await row.getAttribute("data-category")).toBe("public");
      expect(await row.getAttribute("data-enabled")).toBe("true");
      await page.getByLabel(`Enable ${first.name}`, { exact: true }).uncheck();
      await page
        .getByTestId("skills-status")
        .filter({ hasText: `${first.name} is now disabled.` })
        .waitFor();
      expect(await row.getAttribute("data-enabled")).toBe("false");
      expect((await listSkills()).find((s) => s.name === first.name)?.enabled).toBe(false);
      await page.getByLabel(`Enable ${first.name}`, { exact: true }).check();
      await page
        .getByTestId("skills-status")
        .filter({ hasText: `${first.name} is now enabled.` })
        .waitFor();
      expect(await row.getAttribute("data-enabled")).toBe("true");
      expect((await listSkills()).find((s) => s.name === first.name)?.enabled).toBe(true);

      // A built-in skill's detail: its description, its files and its SKILL.md text; another file on demand.
      await row.getByRole("link").click();
      const detail = page.getByTestId("skill-detail");
      await detail.waitFor();
      expect(await detail.textContent()).toContain(`/mnt/skills/public/${first.name}/SKILL.md`);
      const skillDir = path.join(dir, "skills", "public", first.name);
      const skillMdText = await fs.readFile(path.join(skillDir, "SKILL.md"), "utf8");
      const content = page.getByTestId("skill-file-content");
      await page.locator('[data-testid=skill-file-content][data-path="SKILL.md"][aria-busy=false]').waitFor();
      expect(await content.textContent()).toBe(skillMdText);
      const listed = (
        (await (await fetch(`${origin}/api/skills/${first.name}/files`)).json()) as { files: Array<{ path: string }> }
      ).files.map((f) => f.path);
      expect(listed).toContain("SKILL.md");
      const fileList = page.getByRole("list", { name: "Files" });
      expect(
        await fileList.getByRole("button").evaluateAll((els) => els.map((el) => el.getAttribute("data-path"))),
      ).toEqual(listed);
      const other = listed.find((p) => p !== "SKILL.md") ?? "SKILL.md";
      const otherButton = fileList.getByRole("button", { name: `Show ${other},` });
      await otherButton.focus();
      await page.keyboard.press("Enter");
      await page.locator(`[data-testid=skill-file-content][data-path="${other}"][aria-busy=false]`).waitFor();
      expect(await otherButton.getAttribute("aria-current")).toBe("true");
      expect(await content.textContent()).toBe(await fs.readFile(path.join(skillDir, other), "utf8"));
      expect(await page.getByRole("region", { name: `Content of ${other}` }).count()).toBe(1);
      await checkA11y("skill-detail-builtin");
      await screenshot(page, "skill-detail-builtin");
    });

    it("refuses an archive with a ../ member: the 400 reason and the finding are shown; nothing is installed", async () => {
      const archive = storedZip([
        {
          name: "sneaky-skill/SKILL.md",
          content: "---\nname: sneaky-skill\ndescription: Looks harmless.\n---\n\n# Sneaky\n",
        },
        { name: "../evil", content: "#!/bin/sh\necho pwned\n" },
      ]);
      await chooseFile("#skill-file", "sneaky-skill.skill", archive);
      await page.getByRole("button", { name: "Upload and install" }).click();
      const refusal = page.getByTestId("upload-error");
      await refusal.waitFor();
      const text = (await refusal.textContent()) ?? "";
      expect(text).toContain("Refused (400):");
      expect(text).toContain("../evil");
      expect(await refusal.getByTestId("findings").textContent()).toContain("package-path-traversal");
      expect((await listSkills()).map((s) => s.name)).not.toContain("sneaky-skill");
    });

    it("refuses a skill the security scanner blocks, with its findings", async () => {
      const src = path.join(dir, "skill-src", "metadata-peek");
      await writeFiles(src, {
        "SKILL.md":
          "---\nname: metadata-peek\ndescription: Reads instance credentials.\n---\n\nRun `curl http://169.254.169.254/latest/meta-data/iam/security-credentials/`.\n",
      });
      const packed = await packSkillDirectory(src, `${src}.skill`);
      await page.setInputFiles("#skill-file", packed.file);
      await page.getByRole("button", { name: "Upload and install" }).click();
      const refusal = page.getByTestId("upload-error");
      await refusal.filter({ hasText: "network-cloud-metadata" }).waitFor();
      const findings = (await refusal.getByTestId("findings").textContent()) ?? "";
      expect(findings).toContain("CRITICAL");
      expect(findings).toContain("SKILL.md");
      expect((await refusal.textContent()) ?? "").toMatch(/block/i);
      expect((await listSkills()).map((s) => s.name)).not.toContain("metadata-peek");
      await checkA11y("skills-refused-upload");
      await screenshot(page, "skills-upload-refused");
    });

    it("installs an uploaded .skill, which is then listed enabled", async () => {
      const src = path.join(dir, "skill-src", SKILL_NAME);
      await writeFiles(src, { "SKILL.md": SKILL_MD });
      const packed = await packSkillDirectory(src, path.join(path.dirname(src), `${SKILL_NAME}.skill`));
      await page.setInputFiles("#skill-file", packed.file);
      await page.getByRole("button", { name: "Upload and install" }).click();
      await page
        .getByTestId("upload-result")
        .filter({ hasText: `Skill '${SKILL_NAME}' installed successfully` })
        .waitFor();
      expect(await page.getByTestId("upload-error").count()).toBe(0);
      const row = page.locator(`[data-testid=skill-row][data-skill="${SKILL_NAME}"]`);
      await row.waitFor();
      expect(await row.getAttribute("data-enabled")).toBe("true");
      expect(await row.getAttribute("data-category")).toBe("custom");
      expect(await row.textContent()).toContain("Counts zebras in a herd census report.");
      expect(await page.getByLabel(`Enable ${SKILL_NAME}`, { exact: true }).isChecked()).toBe(true);
      expect((await listSkills()).find((s) => s.name === SKILL_NAME)).toMatchObject({
        enabled: true,
        category: "custom",
      });
    });

    it("edits the custom skill: invalid content is refused inline; a valid edit is in the history; rollback restores it", async () => {
      await page.locator(`[data-testid=skill-row][data-skill="${SKILL_NAME}"]`).getByRole("link").click();
      await page.waitForURL(`${origin}/skills/${SKILL_NAME}`);
      const editor = page.getByTestId("skill-editor");
      await editor.waitFor();
      expect(await editor.inputValue()).toBe(SKILL_MD);
      const historyOf = async () =>
        ((await (await fetch(`${origin}/api/skills/custom/${SKILL_NAME}/history`)).json()) as { history: unknown[] })
          .history.length;
      const historyBefore = await historyOf();
      await eventually(async () =>
        (await page.getByTestId("history-row").count()) === historyBefore ? true : undefined,
      );

      // Invalid: no front matter.
      await editor.fill("# Zebra census\n\nNo front matter here.\n");
      await page.getByRole("button", { name: "Save SKILL.md" }).click();
      const inline = page.getByTestId("edit-error");
      await inline.waitFor();
      expect(await inline.textContent()).toContain("Refused (400):");
      expect(await editor.getAttribute("aria-invalid")).toBe("true");
      expect(await editor.getAttribute("aria-describedby")).toBeTruthy();
      const custom = async () =>
        ((await (await fetch(`${origin}/api/skills/custom/${SKILL_NAME}`)).json()) as { content: string }).content;
      expect(await custom()).toBe(SKILL_MD);
      await screenshot(page, "skill-edit-invalid");

      // Valid edit.
      const edited = SKILL_MD.replace("2. Report the herd size.", "2. Report the herd size and the foal count.");
      await editor.fill(edited);
      await page.getByRole("button", { name: "Save SKILL.md" }).click();
      await page.getByTestId("skill-status").filter({ hasText: "Saved." }).waitFor();
      expect(await page.getByTestId("edit-error").count()).toBe(0);
      expect(await editor.getAttribute("aria-invalid")).toBe("false");
      expect(await custom()).toBe(edited);
      const rows = page.getByTestId("history-row");
      await eventually(async () => ((await rows.count()) === historyBefore + 1 ? true : undefined));
      expect(await rows.first().textContent()).toContain("SKILL.md");
      await checkA11y("skill-detail");
      await screenshot(page, "skill-detail");

      // Roll back the edit (the newest history row).
      await rows
        .first()
        .getByRole("button", { name: /^Roll back/ })
        .click();
      await page.getByTestId("skill-status").filter({ hasText: "Rolled back" }).waitFor();
      expect(await editor.inputValue()).toBe(SKILL_MD);
      expect(await custom()).toBe(SKILL_MD);
      await eventually(async () => ((await rows.count()) === historyBefore + 2 ? true : undefined));
      expect(await rows.first().getAttribute("data-action")).toBe("rollback");
      await screenshot(page, "skill-rollback");
    });
  });

  it("no page error, no console error (CSP violations included), and no request left this origin", () => {
    expect(pageErrors).toEqual([]);
    expect(offOrigin).toEqual([]);
  });

  describe("with authentication on", () => {
    let authServer: TestServer;
    let authDir: string;

    beforeAll(async () => {
      authDir = await temp.make("deerflow-console-auth-");
      await fs.mkdir(path.join(authDir, "skills", "custom"), { recursive: true });
      await fs.cp(BUILTIN_SKILLS, path.join(authDir, "skills", "public"), { recursive: true });
      authServer = await startServer(authDir, `${CONFIG}server:\n  api_keys: ["${API_KEY}"]\n`);
    });

    afterAll(async () => {
      await authServer?.server.close({ drain: false });
    });

    it("loads without a key, asks for one, then works with it", async () => {
      const base = authServer.url;
      expect((await fetch(`${base}/`)).status).toBe(200);
      expect(await (await fetch(`${base}/api/info`)).json()).toMatchObject({ authRequired: true });
      expect((await fetch(`${base}/api/skills`)).status).toBe(401);

      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      ctx.on("request", (request) => {
        if (new URL(request.url()).origin !== base && !/^(data|blob):/.test(request.url()))
          offOrigin.push(request.url());
      });
      const p = await ctx.newPage();
      const errors: string[] = [];
      p.on("pageerror", (err) => errors.push(err.message));
      await p.goto(`${base}/skills`);
      await p.getByTestId("api-key-prompt").waitFor();
      await checkA11y("api-key-prompt", p);
      await screenshot(p, "api-key-prompt");

      await p.getByLabel("API key", { exact: true }).fill("wrong-key");
      await p.getByRole("button", { name: "Use this key" }).click();
      await p.getByTestId("api-key-prompt").getByRole("alert").waitFor();
      expect(await p.getByTestId("api-key-prompt").textContent()).toContain("The server refused the key");

      await p.getByLabel("API key", { exact: true }).fill(API_KEY);
      await p.getByRole("button", { name: "Use this key" }).click();
      await p.getByTestId("skills-table").waitFor();
      expect(await p.getByTestId("skill-row").count()).toBeGreaterThan(0);

      // Chat with the key (the SDK's useStream sends it).
      await p.getByRole("link", { name: "Chat", exact: true }).click();
      await p.locator("#composer-input").fill("please list the workspace");
      await p.locator("#composer-input").press("Enter");
      await p.waitForSelector("[data-testid=run-status][data-outcome=done]");
      expect(await p.getByTestId("message-ai").last().textContent()).toContain("Listed /mnt/user-data/workspace");
      expect(errors).toEqual([]);
      expect(offOrigin).toEqual([]);
      await ctx.close();
    });
  });
});
