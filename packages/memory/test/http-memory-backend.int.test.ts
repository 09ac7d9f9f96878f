/**
 * The plugin example: HttpMemoryBackend against a local service speaking its
 * API over a real socket passes the conformance kit; its key is sent; a dead
 * service or a non-JSON answer is BACKEND_FAILED, never a hang.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpMemoryBackend } from "../src/index.js";
import { memoryBackendConformance } from "../src/testing/index.js";
import { startHttpMemoryService, type HttpMemoryService } from "../src/testing/http-memory-service.js";

let service: HttpMemoryService;

beforeAll(async () => {
  service = await startHttpMemoryService();
});

afterAll(async () => {
  await service?.close();
});

memoryBackendConformance({
  name: "HttpMemoryBackend against a local memory service",
  makeBackend: async () => ({ backend: new HttpMemoryBackend({ baseUrl: service.baseUrl, apiKey: "k-123" }) }),
  describe,
  it,
  expect,
});

describe("HttpMemoryBackend transport", () => {
  it("sends the API key as a bearer token", async () => {
    await new HttpMemoryBackend({ baseUrl: `${service.baseUrl}/`, apiKey: "k-123" }).get({ userId: "auth" });
    expect(service.authorizations.at(-1)).toBe("Bearer k-123");
  });

  it("reports an unreachable service as BACKEND_FAILED", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const backend = new HttpMemoryBackend({ baseUrl: `http://127.0.0.1:${port}/v1` });
    await expect(backend.get({ userId: "u" })).rejects.toMatchObject({ code: "BACKEND_FAILED" });
  });

  it("reports a non-JSON answer and a timeout as BACKEND_FAILED", async () => {
    const sockets = new Set<import("node:net").Socket>();
    const server = http.createServer((req, res) => {
      if (req.url?.includes("slow") === true) return; // never answers
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>bad gateway</html>");
    });
    server.on("connection", (s) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await expect(
        new HttpMemoryBackend({ baseUrl: `http://127.0.0.1:${port}/v1` }).get({ userId: "u" }),
      ).rejects.toMatchObject({ code: "BACKEND_FAILED" });
      await expect(
        new HttpMemoryBackend({ baseUrl: `http://127.0.0.1:${port}/slow`, timeoutMs: 200 }).get({ userId: "u" }),
      ).rejects.toMatchObject({ code: "BACKEND_FAILED" });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
