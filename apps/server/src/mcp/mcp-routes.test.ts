import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createGateway } from "@deerflow/gateway";
import { McpToolset, staticMcpSource } from "@deerflow/tools";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpRoutes } from "./mcp-routes.js";

describe("/api/mcp routes", () => {
  let dir: string;
  let file: string;
  let app: FastifyInstance;
  const toolset = new McpToolset({ source: staticMcpSource({}) });
  const admin = { authorization: "Bearer admin-key" };
  const user = { authorization: "Bearer user-key" };
  const stored = {
    mcpServers: { fs: { command: "npx", args: ["-y", "pkg"], env: { TOKEN: "t0p" } } },
    skills: { a: { enabled: false } },
    middlewares: ["x:y"],
  };

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "mcp-routes-"));
    file = path.join(dir, "extensions_config.json");
    await fs.writeFile(file, JSON.stringify(stored));
    app = await createGateway({
      auth: {
        apiKeys: [
          { key: "admin-key", admin: true },
          { key: "user-key", userId: "bob" },
        ],
      },
      routes: [mcpRoutes({ filePath: file, toolset, env: {} })],
    });
  });
  afterAll(async () => {
    await app.close();
    await toolset.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const onDisk = async () => JSON.parse(await fs.readFile(file, "utf8")) as typeof stored;

  it("answers a non-admin 403 with DeerFlow's text on every route, before reading the body", async () => {
    for (const [method, url] of [
      ["GET", "/api/mcp/config"],
      ["PUT", "/api/mcp/config"],
      ["PATCH", "/api/mcp/config"],
      ["POST", "/api/mcp/cache/reset"],
      ["GET", "/api/mcp/status"],
    ] as const) {
      const res = await app.inject(
        method === "GET" ? { method, url, headers: user } : { method, url, headers: user, payload: "{not json" },
      );
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ detail: "Admin privileges required to manage MCP configuration." });
    }
  });

  it("PATCH flips one server, 404 for an unknown one; enabling re-checks the stdio command", async () => {
    const off = await app.inject({
      method: "PATCH",
      url: "/api/mcp/config",
      headers: admin,
      payload: { server_name: "fs", enabled: false },
    });
    expect(off.statusCode).toBe(200);
    expect((await onDisk()).mcpServers.fs).toMatchObject({ enabled: false, env: { TOKEN: "t0p" } });
    expect((await onDisk()).middlewares).toEqual(["x:y"]);
    const missing = await app.inject({
      method: "PATCH",
      url: "/api/mcp/config",
      headers: admin,
      payload: { server_name: "nope", enabled: true },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ detail: "MCP server 'nope' not found" });
    const bad = await app.inject({
      method: "PATCH",
      url: "/api/mcp/config",
      headers: admin,
      payload: { server_name: "", enabled: true },
    });
    expect(bad.statusCode).toBe(422);
  });

  it("validates PUT bodies: server names, transport types, URL schemes", async () => {
    for (const servers of [
      { "../evil": { command: "npx" } },
      { ok: { type: "websocket", url: "ws://x" } },
      { ok: { type: "http", url: "file:///etc/passwd" } },
      { ok: { command: "npx", args: [{ a: 1 }] } },
    ]) {
      const res = await app.inject({
        method: "PUT",
        url: "/api/mcp/config",
        headers: admin,
        payload: { mcp_servers: servers },
      });
      expect(res.statusCode, JSON.stringify(servers)).toBe(422);
    }
  });

  it("concurrent PUTs never tear the file: it is always one of the bodies, skills kept", async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => ({
      mcp_servers: { [`s${i}`]: { type: "http", url: `https://mcp${i}.example/mcp`, headers: { "X-Key": `k${i}` } } },
    }));
    const answers = await Promise.all(
      bodies.map((b) => app.inject({ method: "PUT", url: "/api/mcp/config", headers: admin, payload: b })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(bodies.map(() => 200));
    const final = await onDisk();
    const match = bodies.find(
      (b) => JSON.stringify(Object.keys(b.mcp_servers)) === JSON.stringify(Object.keys(final.mcpServers)),
    );
    expect(match).toBeDefined();
    expect(final.mcpServers).toEqual(match!.mcp_servers);
    expect(final.skills).toEqual({ a: { enabled: false } });
    const leftovers = (await fs.readdir(dir)).filter((f) => f !== "extensions_config.json");
    expect(leftovers).toEqual([]);
  });

  it("cache reset answers DeerFlow's message", async () => {
    const res = await app.inject({ method: "POST", url: "/api/mcp/cache/reset", headers: admin });
    expect(res.json()).toEqual({ success: true, message: "MCP tools cache reset. Tools will reload on next use." });
  });
});
