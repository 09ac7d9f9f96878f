/**
 * Real services for integration tests. Redis and PostgreSQL are read from
 * REDIS_URL / DATABASE_URL (defaults: the local services). When Redis is down a
 * throwaway `redis-server` is started if the binary exists. A service that is
 * still missing skips its tests with a loud message — except under CI=true,
 * where a missing service is a failure.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";
const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";

function missing(service: string, why: string): null {
  const message = `\n!!! ${service} unavailable (${why}): its integration tests are SKIPPED.\n`;
  if (process.env["CI"] === "true") throw new Error(`${service} is required under CI=true but unavailable: ${why}`);
  process.stderr.write(message);
  return null;
}

/** Sends PING over a raw socket; true on +PONG. */
export function pingRedis(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (d) => done(d.toString().startsWith("+PONG")));
  });
}

function hasRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

/** A `redis-server` child owned by the test, on a free port and its own directory. */
export class ThrowawayRedis {
  readonly port: number;
  readonly dir: string;
  private child: ChildProcess | undefined;
  private readonly appendOnly: boolean;

  private constructor(port: number, dir: string, appendOnly: boolean) {
    this.port = port;
    this.dir = dir;
    this.appendOnly = appendOnly;
  }

  /** Redis URL of this server. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /**
   * Starts a server. `appendOnly` turns on AOF with fsync on every write, so a
   * restart keeps every acknowledged entry.
   */
  static async start(options: { appendOnly?: boolean } = {}): Promise<ThrowawayRedis> {
    const port = await freePort();
    const dir = mkdtempSync(path.join(os.tmpdir(), "deerflow-redis-"));
    const server = new ThrowawayRedis(port, dir, options.appendOnly ?? false);
    await server.launch();
    return server;
  }

  private async launch(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--dir", this.dir];
    args.push(...(this.appendOnly ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]));
    this.child = spawn("redis-server", args, { stdio: "ignore" });
    for (let i = 0; i < 200; i++) {
      if (await pingRedis("127.0.0.1", this.port, 200)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`redis-server on port ${this.port} did not start`);
  }

  /** Stops the server (SIGTERM: with AOF on, nothing acknowledged is lost). */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }

  /** Stops, waits `downMs`, and starts again on the same port and directory. */
  async restart(downMs = 0): Promise<void> {
    await this.stop();
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.launch();
  }

  /** Stops and removes the data directory. */
  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

let throwaway: Promise<ThrowawayRedis> | undefined;

/**
 * URL of a reachable Redis: REDIS_URL or the local default, else a throwaway
 * server; null (after a loud warning) when none can be had outside CI.
 */
export async function requireRedis(): Promise<string | null> {
  const url = process.env["REDIS_URL"] ?? DEFAULT_REDIS_URL;
  const parsed = new URL(url);
  if (await pingRedis(parsed.hostname, Number(parsed.port || 6379))) return url;
  if (hasRedisServer()) {
    throwaway ??= ThrowawayRedis.start();
    return (await throwaway).url;
  }
  return missing("Redis", `nothing answers at ${url} and redis-server is not installed`);
}

/** True when throwaway Redis servers can be started (for restart tests). */
export function canStartRedis(): boolean {
  if (hasRedisServer()) return true;
  missing("redis-server binary", "restart tests need to start their own server");
  return false;
}

/** URL of a reachable PostgreSQL (DATABASE_URL or the local default), or null after a loud warning outside CI. */
export async function requirePostgres(): Promise<string | null> {
  const url = process.env["DATABASE_URL"] ?? DEFAULT_DATABASE_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return url;
  } catch (err) {
    return missing("PostgreSQL", `${url}: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A unique name for per-test Redis key prefixes and PostgreSQL schemas. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
}
