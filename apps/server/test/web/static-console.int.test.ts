/**
 * Serving of the web console by the real server, without a browser: which requests reach the
 * console and which the gateway, `GET /api/info` (open even with authentication), caching and
 * the single-page fallback on a small fixture build, the 503 of a missing build, and a server
 * with the console turned off.
 */
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  CONSOLE_CSP,
  CONSOLE_NOT_BUILT_MESSAGE,
  INFO_PATH,
  isConsoleRequest,
  resolveConsoleDir,
} from "../../src/server/static-console.js";
import { tempDirs, writeFiles } from "../support/temp-dir.js";
import { HOST_BASH_CONFIG, startServer, type TestServer } from "../support/server-harness.js";

const temp = tempDirs();
let server: TestServer | undefined;

afterEach(async () => {
  await server?.server.close({ drain: false });
  server = undefined;
});

afterAll(async () => {
  await temp.cleanup();
});

/** A fixture build: index.html and one hashed asset. */
async function fixtureBuild(): Promise<string> {
  const dist = path.join(await temp.make("deerflow-console-dist-"), "dist");
  await writeFiles(dist, {
    "index.html":
      '<!doctype html><html lang="en"><head><title>t</title><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>',
    "assets/app-abc123.js": "console.log('console');\n",
    ".hidden": "secret\n",
  });
  return dist;
}

describe("isConsoleRequest", () => {
  it.each([
    ["GET", "/", true],
    ["HEAD", "/", true],
    ["GET", "/chat/abc?x=1", true],
    ["GET", "/assets/app.js", true],
    ["GET", INFO_PATH, true],
    ["GET", `${INFO_PATH}?t=1`, true],
    ["POST", "/", false],
    ["POST", INFO_PATH, false],
    ["GET", "/api", false],
    ["GET", "/api/skills", false],
    ["GET", "/api/threads/t/runs/r/stream", false],
    ["GET", "/health", false],
    ["GET", "/ok", false],
    ["GET", "/openapi.json", false],
  ])("%s %s → %s", (method, url, expected) => {
    expect(isConsoleRequest(method, url)).toBe(expected);
  });
});

describe("the console served by createServer", () => {
  it("serves a build with caching, CSP and the single-page fallback; the API is untouched", async () => {
    const dist = await fixtureBuild();
    server = await startServer(await temp.make(), HOST_BASH_CONFIG, { consoleDir: dist });
    const { url } = server;

    const index = await fetch(`${url}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<div id="root">');
    expect(index.headers.get("cache-control")).toBe("no-cache");
    expect(index.headers.get("content-security-policy")).toBe(CONSOLE_CSP);

    const asset = await fetch(`${url}/assets/app-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("content-type")).toContain("javascript");

    for (const page of ["/chat", "/chat/some-thread", "/skills/zebra-census", "/index.html"]) {
      const res = await fetch(`${url}${page}`);
      expect(res.status, page).toBe(200);
      expect(res.headers.get("cache-control"), page).toBe("no-cache");
      expect(await res.text(), page).toContain('<div id="root">');
    }
    expect((await fetch(`${url}/assets/missing-xyz.js`)).status).toBe(404);
    expect((await fetch(`${url}/favicon.ico`)).status).toBe(404);
    expect((await fetch(`${url}/.hidden`)).status).toBe(404);
    expect((await fetch(`${url}/assets/..%2f.hidden`)).status).toBe(404);

    // Gateway routes keep their answers.
    expect(await (await fetch(`${url}/ok`)).json()).toEqual({ ok: true });
    const notFound = await fetch(`${url}/api/does-not-exist`);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ detail: "Not Found" });
    expect((await fetch(`${url}/`, { method: "POST" })).status).toBe(404);
    const info = await fetch(`${url}${INFO_PATH}`);
    expect(info.headers.get("cache-control")).toBe("no-store");
    expect(await info.json()).toEqual({
      version: expect.any(String),
      demoModel: true,
      defaultModel: "demo",
      authRequired: false,
      accounts: false,
    });
    // /api/info is a route of the gateway: in the OpenAPI document and for app.inject.
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain(INFO_PATH);
    expect((await server.server.app.inject({ url: INFO_PATH })).json()).toMatchObject({ demoModel: true });
  });

  it("with authentication on: the console and /api/info load without a key, the API still needs one", async () => {
    const dist = await fixtureBuild();
    server = await startServer(await temp.make(), `${HOST_BASH_CONFIG}server:\n  api_keys: ["k-123"]\n`, {
      consoleDir: dist,
    });
    const { url } = server;
    expect((await fetch(`${url}/`)).status).toBe(200);
    expect((await fetch(`${url}/chat/x`)).status).toBe(200);
    expect((await fetch(`${url}/assets/app-abc123.js`)).status).toBe(200);
    expect(await (await fetch(`${url}${INFO_PATH}`)).json()).toMatchObject({ authRequired: true });
    expect((await fetch(`${url}/api/assistants/lead_agent`)).status).toBe(401);
    expect(
      (await fetch(`${url}/api/assistants/lead_agent`, { headers: { authorization: "Bearer k-123" } })).status,
    ).toBe(200);
    expect((await fetch(`${url}/openapi.json`)).status).toBe(401);
    // /api/info is one of the gateway's public routes: open through app.inject too, unlike an unknown API path.
    expect((await server.server.app.inject({ url: INFO_PATH })).statusCode).toBe(200);
    expect((await fetch(`${url}/api/does-not-exist`)).status).toBe(401);
  });

  it("answers 503 with the build command when the console is not built", async () => {
    const empty = await temp.make("deerflow-console-empty-");
    server = await startServer(await temp.make(), HOST_BASH_CONFIG, { consoleDir: empty });
    for (const page of ["/", "/chat", "/assets/app.js"]) {
      const res = await fetch(`${server.url}${page}`);
      expect(res.status, page).toBe(503);
      expect(await res.text()).toBe(CONSOLE_NOT_BUILT_MESSAGE);
    }
    expect(CONSOLE_NOT_BUILT_MESSAGE).toContain("pnpm --filter @deerflow/web build");
    expect((await fetch(`${server.url}${INFO_PATH}`)).status).toBe(200);
    expect(server.logs.messages().some((m) => m.startsWith("web console: not built"))).toBe(true);
  });

  it("serves no console with consoleDir: false (the gateway answers /)", async () => {
    server = await startServer(await temp.make(), HOST_BASH_CONFIG, { consoleDir: false });
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not Found" });
  });
});

describe("resolveConsoleDir", () => {
  it("honours DEERFLOW_CONSOLE_DIR, and finds apps/web/dist in the repository otherwise", async () => {
    const dist = await fixtureBuild();
    expect(resolveConsoleDir({ DEERFLOW_CONSOLE_DIR: dist })).toBe(dist);
    expect(resolveConsoleDir({ DEERFLOW_CONSOLE_DIR: await temp.make() })).toBeUndefined();
    const found = resolveConsoleDir({});
    // In the repository: the workspace package's build (when built).
    if (found !== undefined) expect(found).toBe(path.resolve(import.meta.dirname, "../../../web/dist"));
  });
});
