/**
 * The Docker assets cannot be built here (no Docker engine), so they are checked by
 * inspection: docker-compose.yml parses and wires the server to healthy Redis and
 * PostgreSQL services; the Dockerfile's sources exist, its entry point is the built
 * CLI, its pins match the repository; the image's config.yaml is a valid config.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { parseConfigText } from "../config/load-config.js";

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const ROOT = path.resolve(APP_DIR, "../..");

type Doc = Record<string, unknown>;
const dockerfile = readFileSync(path.join(APP_DIR, "Dockerfile"), "utf8");
const compose = load(readFileSync(path.join(ROOT, "docker-compose.yml"), "utf8")) as Doc;

/** Dockerfile instructions with continuation lines joined, comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  const joined = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  return joined.map((l) => {
    const [op = "", ...rest] = l.split(/\s+/);
    return { op: op.toUpperCase(), args: rest.join(" ") };
  });
}

const ops = instructions(dockerfile);
const service = (name: string): Doc => (compose["services"] as Doc)[name] as Doc;

describe("Dockerfile", () => {
  it("is multi-stage, pins the repository's pnpm and Node major, and runs the built CLI as node", () => {
    const froms = ops.filter((i) => i.op === "FROM").map((i) => i.args);
    expect(froms).toEqual(["${NODE_IMAGE} AS build", "${NODE_IMAGE} AS runtime"]);
    const nodeImage = ops.find((i) => i.op === "ARG" && i.args.startsWith("NODE_IMAGE="))?.args;
    const engines = JSON.parse(readFileSync(path.join(APP_DIR, "package.json"), "utf8")) as {
      engines: { node: string };
      bin: Record<string, string>;
    };
    expect(nodeImage).toMatch(/^NODE_IMAGE=node:20-/);
    expect(engines.engines.node).toMatch(/^>=20\./);

    const pinned = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { packageManager: string })
      .packageManager;
    expect(dockerfile).toContain(`npm install --global --no-audit --no-fund ${pinned}`);

    const runtime = ops.slice(ops.findIndex((i) => i.op === "FROM" && i.args.endsWith("AS runtime")));
    expect(runtime.find((i) => i.op === "USER")?.args).toBe("node");
    expect(runtime.find((i) => i.op === "EXPOSE")?.args).toBe("2024");
    expect(runtime.find((i) => i.op === "VOLUME")?.args).toBe('["/data"]');
    expect(runtime.find((i) => i.op === "HEALTHCHECK")?.args).toContain("http://127.0.0.1:2024/ok");
    const cmd = JSON.parse(runtime.find((i) => i.op === "CMD")?.args ?? "[]") as string[];
    expect(cmd).toEqual(["node", "dist/main.js", "--config", "/app/config.yaml"]);
    // dist/main.js is what tsup builds from src/main.ts, and the package's bin.
    expect(engines.bin["deerflow-server"]).toBe("dist/main.js");
    expect(readFileSync(path.join(APP_DIR, "tsup.config.ts"), "utf8")).toContain('main: "src/main.ts"');
  });

  it("only references files that exist in the build context (the repository root)", () => {
    const sources = [
      // COPY without --from copies from the context.
      ...ops
        .filter((i) => i.op === "COPY" && !i.args.includes("--from="))
        .flatMap((i) =>
          i.args
            .split(/\s+/)
            .filter((a) => !a.startsWith("--"))
            .slice(0, -1),
        ),
      // Files the build stage copies out of the repository.
      ...[...dockerfile.matchAll(/cp (?:-R )?([\w./-]+) \/prod\/server/g)].map((m) => m[1] as string),
      "pnpm-lock.yaml",
      "pnpm-workspace.yaml",
    ];
    expect(sources).toEqual(expect.arrayContaining(["skills/public", "apps/server/docker/config.yaml"]));
    for (const src of sources) expect(existsSync(path.join(ROOT, src)), src).toBe(true);
    // The workspace's better-sqlite3 build is allowed, and the filter names this package.
    expect(readFileSync(path.join(ROOT, "pnpm-workspace.yaml"), "utf8")).toContain("better-sqlite3");
    expect(dockerfile).toContain("--filter=@deerflow/server...");
  });

  it("has a context filter that keeps out dependencies and builds but not what the build needs", () => {
    const ignore = readFileSync(path.join(APP_DIR, "Dockerfile.dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"));
    expect(ignore).toEqual(expect.arrayContaining(["**/node_modules", "**/dist", ".git", "**/.deerflow-data"]));
    for (const needed of ["pnpm-lock.yaml", "skills", "skills/public", "apps", "packages", "apps/server/docker"])
      expect(ignore).not.toContain(needed);
  });

  it("ships a valid config.yaml: every interface, port 2024, data in the /data volume", () => {
    const { config } = parseConfigText(readFileSync(path.join(APP_DIR, "docker/config.yaml"), "utf8"), {
      baseDir: "/app",
    });
    expect(config.server.host).toBe("0.0.0.0");
    expect(config.server.port).toBe(2024);
    expect(config.storage.dataDir).toBe("/data");
    expect(config.skills.path).toBe("/app/skills");
    expect(config.extensionsConfigPath).toBe("/data/extensions_config.json");
    // With the compose environment the shared services are chosen.
    const env = service("server")["environment"] as Record<string, string>;
    const scaled = parseConfigText(readFileSync(path.join(APP_DIR, "docker/config.yaml"), "utf8"), {
      baseDir: "/app",
      env,
    }).config.runtime;
    expect([scaled.streamBridge.type, scaled.runStore.type, scaled.checkpointer.type]).toEqual([
      "redis",
      "postgres",
      "postgres",
    ]);
  });
});

describe("docker-compose.yml", () => {
  it("builds the server from apps/server/Dockerfile with the repository as context", () => {
    const build = service("server")["build"] as Doc;
    expect(build).toEqual({ context: ".", dockerfile: "apps/server/Dockerfile" });
    expect(existsSync(path.join(ROOT, String(build["context"]), String(build["dockerfile"])))).toBe(true);
  });

  it("runs two server replicas on Redis 7 and PostgreSQL 15, started once both are healthy", () => {
    const server = service("server");
    expect((server["deploy"] as Doc)["replicas"]).toBe(2);
    expect(server["ports"]).toEqual(["2024-2025:2024"]);
    expect(server["depends_on"]).toEqual({
      redis: { condition: "service_healthy" },
      postgres: { condition: "service_healthy" },
    });
    expect(service("redis")["image"]).toBe("redis:7");
    expect(service("postgres")["image"]).toBe("postgres:15");
    for (const name of ["redis", "postgres"])
      expect(((service(name)["healthcheck"] as Doc)["test"] as string[]).length).toBeGreaterThan(1);
    // Longer than the drain budget.
    const env = server["environment"] as Record<string, string>;
    expect(Number.parseInt(String(server["stop_grace_period"]), 10)).toBeGreaterThan(
      Number(env["DEERFLOW_SHUTDOWN_TIMEOUT_SECONDS"]),
    );
    expect(server["volumes"]).toEqual(expect.arrayContaining(["deerflow-data:/data"]));
  });

  it("wires REDIS_URL and DATABASE_URL to those services with the database's credentials", () => {
    const env = service("server")["environment"] as Record<string, string>;
    const redis = new URL(String(env["REDIS_URL"]));
    expect([redis.protocol, redis.hostname, redis.port]).toEqual(["redis:", "redis", "6379"]);
    const db = new URL(String(env["DATABASE_URL"]));
    const pgEnv = service("postgres")["environment"] as Record<string, string>;
    expect([db.protocol, db.hostname, db.port]).toEqual(["postgres:", "postgres", "5432"]);
    expect([db.username, db.password, db.pathname.slice(1)]).toEqual([
      pgEnv["POSTGRES_USER"],
      pgEnv["POSTGRES_PASSWORD"],
      pgEnv["POSTGRES_DB"],
    ]);
    const volumes = Object.keys(compose["volumes"] as Doc);
    for (const v of (service("server")["volumes"] as string[]).map((s) => s.split(":")[0] as string))
      expect(volumes).toContain(v);
  });
});
