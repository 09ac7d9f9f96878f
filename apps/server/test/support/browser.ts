/**
 * Browser helpers of the web console tests: Debian's Chromium driven by
 * playwright-core (no browser download), the built console, axe-core checks
 * and screenshots.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { expect } from "vitest";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** apps/server. */
const SERVER_DIR = path.resolve(HERE, "../..");
/** The built console (`pnpm --filter @deerflow/web build`). */
export const WEB_DIST = path.resolve(SERVER_DIR, "../web/dist");
/** Where the screenshots and measurements of these tests go (git-ignored). */
export const ARTIFACTS_DIR = path.join(SERVER_DIR, "test-artifacts");
const SCREENSHOTS_DIR = path.join(ARTIFACTS_DIR, "screenshots");

/** Debian's Chromium (`apt-get install chromium`); `DEERFLOW_CHROMIUM` overrides. */
export const CHROMIUM_PATH = process.env["DEERFLOW_CHROMIUM"] ?? "/usr/bin/chromium";

/**
 * Flags known to work as root on a machine without outside network: no sandbox (root), no
 * GPU, and none of Chromium's background connections (they would be refused, many at a time).
 * playwright-core gives every launch a new empty profile (`--user-data-dir`).
 */
const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** True when Chromium is installed. */
export const HAVE_CHROMIUM = existsSync(CHROMIUM_PATH);

/** Launches headless Debian Chromium. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
}

/**
 * Makes sure `apps/web/dist` exists: the turbo pipeline builds it before these tests; when it is
 * missing (a lone `vitest run`), it is built here with pnpm.
 *
 * @throws Error naming the command when the build fails
 */
export function ensureConsoleBuilt(): void {
  if (existsSync(path.join(WEB_DIST, "index.html"))) return;
  const execPath = process.env["npm_execpath"];
  const [cmd, args] = execPath !== undefined && /pnpm/.test(execPath) ? [process.execPath, [execPath]] : ["pnpm", []];
  try {
    // NODE_ENV is vitest's "test": the build must not inherit it.
    const env = { ...process.env, NODE_ENV: "production" };
    execFileSync(cmd, [...args, "--filter", "@deerflow/web", "build"], {
      cwd: SERVER_DIR,
      stdio: "inherit",
      timeout: 180_000,
      env,
    });
  } catch (err) {
    throw new Error(
      `apps/web/dist is missing and \`pnpm --filter @deerflow/web build\` failed: ${(err as Error).message}`,
    );
  }
  if (!existsSync(path.join(WEB_DIST, "index.html")))
    throw new Error("apps/web/dist/index.html is missing after `pnpm --filter @deerflow/web build`");
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** One axe-core violation, summarised. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: number;
  readonly targets: string[];
}

/**
 * Runs axe-core (WCAG 2.x A/AA and best-practice rules) on the page.
 *
 * The console's Content-Security-Policy forbids inline scripts, so axe's source is evaluated
 * through the DevTools protocol (`page.evaluate`) rather than `page.addScriptTag({ content })`.
 */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate("typeof window.axe === 'object'");
  if (loaded !== true) await page.evaluate(AXE_SOURCE);
  const json = await page.evaluate(`(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return JSON.stringify(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) })));
  })()`);
  return JSON.parse(String(json)) as AxeViolation[];
}

/**
 * Fails the test on axe's serious or critical violations, listed in the message with `name`
 * (which page); minor and moderate ones do not fail it.
 */
export function expectNoBlockingViolations(violations: readonly AxeViolation[], name: string): void {
  const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(blocking, `${name}: ${JSON.stringify(blocking, null, 2)}`).toEqual([]);
}

/** Runs axe-core on the page and fails the test on a serious or critical violation. */
export async function expectAxeClean(page: Page, name: string): Promise<void> {
  expectNoBlockingViolations(await runAxe(page), name);
}

/** Saves a full-page screenshot as `<name>.png` under {@link SCREENSHOTS_DIR}; returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Evaluates a browser-side expression (a string: the server's tsconfig has no DOM types). */
export async function evaluate<T>(page: Page, expression: string): Promise<T> {
  return JSON.parse(String(await page.evaluate(`JSON.stringify(${expression})`))) as T;
}
