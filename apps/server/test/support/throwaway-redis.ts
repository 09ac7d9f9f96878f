/**
 * A `redis-server` child of the test on a free port, which the test can stop to
 * play a Redis outage (after ThrowawayRedis in packages/runtime/test/support).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { firstFreePort } from "../../src/server/port-fallback.js";
import { pingRedis } from "./services.js";

/** True when the `redis-server` binary can be started. */
export function canStartRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

/** A running throwaway server. */
export interface ThrowawayRedis {
  readonly url: string;
  /** Stops the server (SIGTERM) and waits for its exit. */
  stop(): Promise<void>;
  /** Stops it if running and removes its folder. */
  destroy(): Promise<void>;
}

/** Starts a server without persistence and resolves once it answers PING. */
export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  // A random base keeps parallel test files off each other's ports.
  const port = await firstFreePort("127.0.0.1", 20_000 + Math.floor(Math.random() * 30_000));
  const dir = mkdtempSync(path.join(os.tmpdir(), "deerflow-server-redis-"));
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; !(await pingRedis("127.0.0.1", port, 200)); i++) {
    if (i >= 200) throw new Error(`redis-server on port ${port} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  return {
    url,
    stop,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
