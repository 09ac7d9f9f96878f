/**
 * Real MCP servers for the tests: the npm packages `@modelcontextprotocol/server-everything`
 * and `server-filesystem` (run with this Node, no npx), the streamable HTTP everything server
 * on a free port, and two local scripts (one fails to start, one hangs).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerSpec } from "../../src/mcp/index.js";

// Resolved like imports, so the devDependencies are declared where they are used.
const require = createRequire(import.meta.url);
const binOf = (packageJson: string): string => path.join(path.dirname(packageJson), "dist/index.js");
const EVERYTHING_BIN = binOf(require.resolve("@modelcontextprotocol/server-everything/package.json"));
const FILESYSTEM_BIN = binOf(require.resolve("@modelcontextprotocol/server-filesystem/package.json"));

export const everythingStdio = (): McpServerSpec => ({
  type: "stdio",
  command: process.execPath,
  args: [EVERYTHING_BIN, "stdio"],
});
export const filesystemStdio = (dir: string): McpServerSpec => ({
  type: "stdio",
  command: process.execPath,
  args: [FILESYSTEM_BIN, dir],
});
export const failingStdio = (): McpServerSpec => ({
  type: "stdio",
  command: process.execPath,
  args: [fileURLToPath(new URL("failing-mcp-server.mjs", import.meta.url))],
});
export const slowStdio = (delayMs: number): McpServerSpec => ({
  type: "stdio",
  command: process.execPath,
  args: [fileURLToPath(new URL("slow-mcp-server.mjs", import.meta.url)), EVERYTHING_BIN, "stdio"],
  env: { SLOW_START_MS: String(delayMs) },
});
export const hangingStdio = (): McpServerSpec => ({
  type: "stdio",
  command: process.execPath,
  args: [fileURLToPath(new URL("hanging-mcp-server.mjs", import.meta.url))],
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** A running streamable HTTP everything server. */
export interface HttpEverything {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts `server-everything` over HTTP and waits until it listens.
 *
 * @param mode - `streamableHttp` (URL `/mcp`) or `sse` (URL `/sse`)
 * @returns its URL and a close function
 */
export async function startHttpEverything(mode: "streamableHttp" | "sse" = "streamableHttp"): Promise<HttpEverything> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING_BIN, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes("listening") || seen.includes("running on port")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`everything server exited (${code}): ${seen}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`,
    async close() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/**
 * The live child processes of this process (what a leak would leave behind).
 *
 * @returns their pids
 */
export function childPids(): number[] {
  try {
    return execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" })
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter(([, comm]) => comm !== undefined && comm !== "ps")
      .map(([pid]) => Number(pid))
      .filter((n) => Number.isInteger(n) && n > 0);
  } catch {
    return [];
  }
}

/**
 * Waits until `check` holds (the pool closes children asynchronously).
 *
 * @param check - the condition
 * @param timeoutMs - give up after this long
 */
export async function eventually(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}
