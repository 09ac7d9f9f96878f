/**
 * The CLI's argument parsing, deployment settings from the environment, and
 * runCli's lifecycle (listen, graceful stop on a signal, exit codes).
 */
import net from "node:net";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { parseCliArgs, USAGE } from "./cli-args.js";
import { CONFIG_DEFAULTS } from "../config/defaults.js";
import { runCli } from "./cli.js";
import { PORT_FALLBACK_SPAN, isPortFree } from "./port-fallback.js";
import { DEPLOYMENT_DEFAULTS, readDeploymentSettings } from "./deployment.js";
import { ServerStartError } from "./errors.js";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";
import { captureLogger, embeddedEnv } from "../../test/support/server-harness.js";

const temp = tempDirs();
afterAll(() => temp.cleanup());

function usageError(fn: () => unknown): ServerStartError {
  try {
    fn();
  } catch (err) {
    if (ServerStartError.isInstance(err)) return err;
    throw err;
  }
  throw new Error("expected a ServerStartError");
}

describe("parseCliArgs", () => {
  it("reads --config, --port and --host in both spellings", () => {
    expect(parseCliArgs([])).toEqual({ help: false });
    expect(parseCliArgs(["--config", "a.yaml", "--port=0", "--host", "0.0.0.0"])).toEqual({
      config: "a.yaml",
      port: 0,
      host: "0.0.0.0",
      help: false,
    });
    expect(parseCliArgs(["-h"]).help).toBe(true);
  });

  it("refuses unknown arguments, missing values and bad ports with SERVER_USAGE", () => {
    expect(usageError(() => parseCliArgs(["--prot", "1"])).message).toContain('Unknown argument "--prot"');
    expect(usageError(() => parseCliArgs(["--port"])).message).toContain("--port needs a value");
    expect(usageError(() => parseCliArgs(["--config", "--port", "1"])).message).toContain("--config needs a value");
    const bad = usageError(() => parseCliArgs(["--port", "70000"]));
    expect(bad.code).toBe("SERVER_USAGE");
    expect(bad.message).toBe('--port must be an integer from 0 to 65535, got "70000"');
  });
});

describe("readDeploymentSettings", () => {
  it("has documented defaults", () => {
    const d = readDeploymentSettings({});
    expect(d).toEqual({
      shutdownTimeoutMs: DEPLOYMENT_DEFAULTS.shutdownTimeoutSeconds * 1000,
      leaseMs: 30_000,
      coordinatorTimeoutMs: 5_000,
      redisKeyPrefix: "deerflow:",
      postgresSchema: "deerflow",
      checkpointerSchema: undefined,
      heartbeatMs: 15_000,
      logLevel: "info",
      instanceId: undefined,
    });
  });

  it("reads the variables and rejects bad values with the variable's name", () => {
    const d = readDeploymentSettings({
      DEERFLOW_SHUTDOWN_TIMEOUT_SECONDS: "2.5",
      DEERFLOW_RUN_LEASE_SECONDS: "3",
      DEERFLOW_COORDINATOR_TIMEOUT_SECONDS: "0.5",
      DEERFLOW_REDIS_KEY_PREFIX: "t1:",
      DEERFLOW_POSTGRES_SCHEMA: "tenant_1",
      LOG_LEVEL: "DEBUG",
      DEERFLOW_INSTANCE_ID: "a",
    });
    expect(d).toMatchObject({
      shutdownTimeoutMs: 2500,
      leaseMs: 3000,
      coordinatorTimeoutMs: 500,
      redisKeyPrefix: "t1:",
      postgresSchema: "tenant_1",
      checkpointerSchema: "tenant_1",
      logLevel: "debug",
      instanceId: "a",
    });
    const err = (env: NodeJS.ProcessEnv): string => {
      try {
        readDeploymentSettings(env);
      } catch (e) {
        expect(ServerStartError.isInstance(e) && e.code).toBe("SERVER_ENV_INVALID");
        return (e as Error).message;
      }
      return "no error";
    };
    expect(err({ DEERFLOW_RUN_LEASE_SECONDS: "0.5" })).toBe(
      'DEERFLOW_RUN_LEASE_SECONDS must be a number of seconds >= 1, got "0.5"',
    );
    expect(err({ DEERFLOW_COORDINATOR_TIMEOUT_SECONDS: "0" })).toBe(
      'DEERFLOW_COORDINATOR_TIMEOUT_SECONDS must be a number of seconds >= 0.1, got "0"',
    );
    expect(err({ DEERFLOW_POSTGRES_SCHEMA: "Bad-Name" })).toContain(
      "DEERFLOW_POSTGRES_SCHEMA must be a lowercase SQL identifier",
    );
    expect(err({ LOG_LEVEL: "loud" })).toContain("LOG_LEVEL must be one of");
  });
});

describe("runCli", () => {
  it("prints usage for --help and exits 0; bad arguments exit 2", async () => {
    let text = "";
    const out = new Writable({ write: (chunk, _enc, cb) => ((text += String(chunk)), cb()) });
    const { logger, logs } = captureLogger();
    expect(await runCli(["--help"], { out, logger, env: embeddedEnv() })).toBe(0);
    expect(text).toBe(USAGE);
    expect(await runCli(["--nope"], { logger, env: embeddedEnv() })).toBe(2);
    expect(logs.records.at(-1)?.["code"]).toBe("SERVER_USAGE");
  });

  it("exits 1 with the config error's code and problems", async () => {
    const dir = await temp.make();
    await writeFiles(dir, { "config.yaml": "server:\n  prot: 1\n" });
    const { logger, logs } = captureLogger();
    expect(await runCli(["--config", path.join(dir, "config.yaml")], { logger, env: embeddedEnv(), cwd: dir })).toBe(1);
    const record = logs.records.at(-1);
    expect(record?.["code"]).toBe("CONFIG_INVALID");
    expect(String(record?.["msg"])).toContain("server.prot: unknown key");
  });

  it("moves off the default port when it is taken, and says so; an explicit --port is never moved", async () => {
    const dir = await temp.make();
    // Hold the default port (or find it already held by something else).
    const holder = net.createServer();
    await new Promise<void>((resolve) => {
      holder.once("error", () => resolve());
      holder.listen({ host: "127.0.0.1", port: CONFIG_DEFAULTS.port }, () => resolve());
    });
    try {
      expect(await isPortFree("127.0.0.1", CONFIG_DEFAULTS.port)).toBe(false);
      const { logger, logs } = captureLogger();
      let url = "";
      const done = runCli(["--host", "127.0.0.1"], {
        logger,
        env: embeddedEnv(),
        cwd: dir,
        signals: ["SIGUSR2"],
        onListening: (_server, u) => {
          url = u;
          process.kill(process.pid, "SIGUSR2");
        },
      });
      expect(await done).toBe(0);
      const port = Number(new URL(url).port);
      expect(port).toBeGreaterThan(CONFIG_DEFAULTS.port);
      expect(port).toBeLessThanOrEqual(CONFIG_DEFAULTS.port + PORT_FALLBACK_SPAN);
      expect(
        logs.records.some((r) => r["event"] === "port" && r["wanted"] === CONFIG_DEFAULTS.port && r["port"] === port),
      ).toBe(true);

      const explicit = captureLogger();
      expect(
        await runCli(["--host", "127.0.0.1", "--port", String(CONFIG_DEFAULTS.port)], {
          logger: explicit.logger,
          env: embeddedEnv(),
          cwd: dir,
        }),
      ).toBe(1);
      expect(JSON.stringify(explicit.logs.records)).toContain("EADDRINUSE");
      expect(explicit.logs.records.some((r) => r["event"] === "port")).toBe(false);
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });

  it("listens on --port 0, and stops gracefully with exit code 0 on a shutdown signal", async () => {
    const dir = await temp.make();
    const { logger, logs } = captureLogger();
    let url = "";
    const done = runCli(["--port", "0", "--host", "127.0.0.1"], {
      logger,
      env: embeddedEnv(),
      cwd: dir,
      signals: ["SIGUSR2"],
      onListening: (_server, u) => {
        url = u;
        process.kill(process.pid, "SIGUSR2");
      },
    });
    expect(await done).toBe(0);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(logs.records.some((r) => r["event"] === "shutdown" && r["signal"] === "SIGUSR2")).toBe(true);
    expect(logs.messages()).toContain("shutdown complete");
    expect(process.listenerCount("SIGUSR2")).toBe(0);
  });
});
