/**
 * Helpers of the server tests: a config in a temp dir, a server listening on a
 * free port with its logs captured, and environment without the scale-out variables.
 */
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { loadConfig } from "../../src/config/load-config.js";
import { createServer, type CreateServerOptions, type DeerFlowServer } from "../../src/server/create-server.js";
import { createServerLogger } from "../../src/server/logger.js";
import { writeFiles } from "./temp-dir.js";

/** `process.env` without REDIS_URL / DATABASE_URL / DEERFLOW_* (embedded defaults whatever the shell has). */
export function embeddedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === "REDIS_URL" || k === "DATABASE_URL" || k.startsWith("DEERFLOW_") || k === "LOG_LEVEL") continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** A config that lets the demo model's `bash` calls run on the host (no bubblewrap in CI containers). */
export const HOST_BASH_CONFIG = `
sandbox:
  allow_host_bash: true
storage:
  data_dir: ./data
`;

/** Log records captured from a server. */
export interface CapturedLogs {
  readonly records: Record<string, unknown>[];
  messages(): string[];
}

/** A pino logger writing parsed records into an array. */
export function captureLogger(level: "debug" | "info" | "warn" = "info"): {
  logger: ReturnType<typeof createServerLogger>;
  logs: CapturedLogs;
} {
  const records: Record<string, unknown>[] = [];
  const logger = createServerLogger({
    level,
    destination: { write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { logger, logs: { records, messages: () => records.map((r) => String(r["msg"])) } };
}

/** A started test server and its SDK client. */
export interface TestServer {
  readonly server: DeerFlowServer;
  readonly url: string;
  readonly client: Client;
  readonly logs: CapturedLogs;
}

/**
 * Writes `config.yaml` into `dir`, creates the server and listens on a free port.
 *
 * @param dir - temp dir (config folder; relative paths resolve here)
 * @param yaml - config text
 * @param options - env and deployment overrides
 */
export async function startServer(
  dir: string,
  yaml: string,
  options: Omit<CreateServerOptions, "logger"> = {},
): Promise<TestServer> {
  await writeFiles(dir, { "config.yaml": yaml });
  const env = options.env ?? embeddedEnv();
  const loaded = await loadConfig({ path: path.join(dir, "config.yaml"), env, cwd: dir });
  const { logger, logs } = captureLogger();
  const server = await createServer(loaded, { ...options, env, cwd: dir, logger });
  const url = await server.listen({ port: 0, host: "127.0.0.1" });
  return { server, url, client: new Client({ apiUrl: `${url}/api` }), logs };
}

/** Polls `check` until it returns a value (the test's own timeout bounds it). */
export async function eventually<T>(check: () => Promise<T | undefined>, intervalMs = 100): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The HTTP status an SDK call failed with, or undefined when it succeeded. */
export async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return (err as { status?: number }).status;
  }
}
