/**
 * The gateway over a real listening socket: raw request paths no client
 * normalised, multipart bodies from fetch's FormData, CORS as a browser sends it.
 */
import { randomBytes } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, USER_KEY, putThreadFile, type Fixture } from "./support/fixture.js";
import { listenFixture, rawRequest } from "./support/socket.js";
import { skillArchive } from "./support/zip.js";

const runs: FastifyPluginAsync = async (app) => {
  app.post("/threads/:thread_id/runs/stream", async (request, reply) => {
    const { thread_id: threadId } = request.params as { thread_id: string };
    return reply.header("content-location", `/api/threads/${threadId}/runs/r1`).send({ run_id: "r1" });
  });
};

describe("gateway over a socket", () => {
  let fx: Fixture;
  let base: URL;
  const user = { "x-api-key": USER_KEY };
  const admin = { authorization: `Bearer ${ADMIN_KEY}` };

  beforeAll(async () => {
    ({ fx, base } = await listenFixture({
      auth: true,
      gateway: { cors: { origins: ["http://console.test"] }, routes: [runs], uploads: { maxFileBytes: 64 * 1024 } },
    }));
  });

  afterAll(async () => {
    await fx.close();
  });

  it("uploads with FormData, lists, and downloads the same bytes", async () => {
    const bytes = randomBytes(10_000);
    const form = new FormData();
    form.append("files", new Blob([bytes]), "blob.bin");
    form.append("files", new Blob(["hello"]), "nested/dir/hello.txt");
    const up = await fetch(new URL("/api/threads/sock-1/uploads", base), { method: "POST", body: form, headers: user });
    expect(up.status).toBe(200);
    expect(((await up.json()) as { files: Array<{ filename: string }> }).files.map((f) => f.filename)).toEqual([
      "blob.bin",
      "hello.txt",
    ]);

    const list = await fetch(new URL("/api/threads/sock-1/uploads/list", base), { headers: user });
    expect(((await list.json()) as { count: number }).count).toBe(2);

    const down = await fetch(
      new URL("/api/threads/sock-1/artifacts/mnt/user-data/uploads/blob.bin?download=true", base),
      { headers: user },
    );
    expect(down.status).toBe(200);
    expect(down.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(Buffer.from(await down.arrayBuffer())).toEqual(bytes);
  });

  it("answers an oversize upload with 413 and stores nothing", async () => {
    const form = new FormData();
    form.append("files", new Blob([randomBytes(256 * 1024)]), "big.bin");
    const res = await fetch(new URL("/api/threads/sock-2/uploads", base), {
      method: "POST",
      body: form,
      headers: user,
    });
    expect(res.status).toBe(413);
    const list = await fetch(new URL("/api/threads/sock-2/uploads/list", base), { headers: user });
    expect(await list.json()).toEqual({ files: [], count: 0 });
  });

  it.each([
    "/api/threads/t1/artifacts/mnt/user-data/outputs/../../../../etc/passwd",
    "/api/threads/t1/artifacts/mnt/user-data/outputs/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/api/threads/t1/artifacts/mnt/user-data/outputs/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/api/threads/t1/artifacts/mnt/user-data/outputs/..%5c..%5c..%5cetc%5cpasswd",
  ])("refuses the unnormalised traversal %s with 403", async (p) => {
    await putThreadFile(fx, "t1", "outputs/report.md", "r", "alice");
    const res = await rawRequest(base, p, user);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toEqual({ detail: "Access denied: path traversal detected" });
  });

  it("refuses an unnormalised traversal in a delete", async () => {
    expect((await rawRequest(base, "/api/threads/t1/uploads/%2e%2e", user, "DELETE")).status).toBe(403);
  });

  it("installs an uploaded skill as admin and refuses it to a user", async () => {
    const form = () => {
      const f = new FormData();
      f.append("file", new Blob([skillArchive("socket-skill")]), "socket-skill.skill");
      return f;
    };
    expect(
      (await fetch(new URL("/api/skills/upload", base), { method: "POST", body: form(), headers: user })).status,
    ).toBe(403);
    const res = await fetch(new URL("/api/skills/upload", base), { method: "POST", body: form(), headers: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      skill_name: "socket-skill",
      message: "Skill 'socket-skill' installed successfully for user 'default'",
    });
  });

  it("answers a browser preflight and lets the page read Content-Location", async () => {
    const pre = await fetch(new URL("/api/threads/t9/runs/stream", base), {
      method: "OPTIONS",
      headers: {
        origin: "http://console.test",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,last-event-id,x-api-key",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("last-event-id");
    const res = await fetch(new URL("/api/threads/t9/runs/stream", base), {
      method: "POST",
      headers: { ...user, origin: "http://console.test", "content-type": "application/json" },
      body: "{}",
    });
    expect(res.headers.get("content-location")).toBe("/api/threads/t9/runs/r1");
    expect(res.headers.get("access-control-expose-headers")).toContain("Content-Location");
  });

  it("answers 401 without a key and keeps the probes open", async () => {
    expect((await fetch(new URL("/api/skills", base))).status).toBe(401);
    expect(await (await fetch(new URL("/ok", base))).json()).toEqual({ ok: true });
  });
});
