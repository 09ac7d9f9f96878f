import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxError } from "../../errors.js";
import { MemorySandboxProvider, okResult, type MemorySandbox } from "../../../test/support/remote/memory-sandbox.js";
import { createSandboxServer } from "./create-sandbox-server.js";

const KEY = "s3cret-key";
const auth = { "x-api-key": KEY };

type Json = Record<string, unknown>;

function errorOf(res: LightMyRequestResponse): { code: string; message: string; path?: string } {
  return (res.json() as { error: { code: string; message: string; path?: string } }).error;
}

describe("createSandboxServer sandbox routes", () => {
  let provider: MemorySandboxProvider;
  let app: FastifyInstance;

  async function post(
    url: string,
    payload: Json,
    headers: Record<string, string> = auth,
  ): Promise<LightMyRequestResponse> {
    return app.inject({ method: "POST", url, payload, headers });
  }

  async function create(sandboxId = "sb1", threadId = "t1", userId = "u1"): Promise<MemorySandbox> {
    const res = await post("/api/sandboxes", { sandbox_id: sandboxId, thread_id: threadId, user_id: userId });
    expect(res.statusCode).toBe(200);
    const sandbox = provider.get(`mem:default.${userId}:${threadId}`);
    if (sandbox === undefined) throw new Error("not acquired");
    return sandbox;
  }

  beforeEach(() => {
    provider = new MemorySandboxProvider();
    app = createSandboxServer({ provider, token: KEY, bodyLimit: 4096 });
  });

  afterEach(async () => {
    await app.close();
  });

  describe("sandbox routes", () => {
    it("answers readiness with the home directory", async () => {
      await create();
      const res = await app.inject({ method: "GET", url: "/sandboxes/sb1/v1/sandbox", headers: auth });
      expect(res.json()).toEqual({
        success: true,
        data: { sandbox_id: "sb1", home_dir: "/mnt/user-data/workspace", status: "Running" },
      });
    });

    it("executes a command and returns the whole result plus output", async () => {
      const sandbox = await create();
      sandbox.executeHandler = async () => okResult("out", { stderr: "err\n", exitCode: 2, truncated: true });
      const res = await post("/sandboxes/sb1/v1/shell/exec", {
        command: "x",
        timeout_ms: 1500,
        cwd: "/mnt/user-data/outputs",
        env: { A_1: "v" },
      });
      expect(res.json()).toEqual({
        success: true,
        data: {
          status: "completed",
          output: "out\nerr\n",
          stdout: "out",
          stderr: "err\n",
          exit_code: 2,
          signal: null,
          timed_out: false,
          truncated: true,
        },
      });
      const options = sandbox.executions[0]?.options;
      expect([options?.timeoutMs, options?.cwd, options?.env]).toEqual([1500, "/mnt/user-data/outputs", { A_1: "v" }]);
    });

    it("reports a timed-out command as hard_timeout", async () => {
      const sandbox = await create();
      sandbox.executeHandler = async () => okResult("", { exitCode: null, signal: "SIGKILL", timedOut: true });
      const res = await post("/sandboxes/sb1/v1/shell/exec", { command: "sleep 9" });
      expect((res.json() as { data: Json }).data).toMatchObject({
        status: "hard_timeout",
        timed_out: true,
        exit_code: null,
        signal: "SIGKILL",
      });
    });

    it("treats no_change_timeout as a timeout in seconds", async () => {
      const sandbox = await create();
      await post("/sandboxes/sb1/v1/shell/exec", { command: "x", no_change_timeout: 600 });
      expect(sandbox.executions[0]?.options.timeoutMs).toBe(600_000);
    });

    it("reads with 0-based start_line and end_line as the last 1-based line", async () => {
      const sandbox = await create();
      await sandbox.writeFile("/mnt/user-data/f.txt", "l1\nl2\nl3\nl4");
      const res = await post("/sandboxes/sb1/v1/file/read", {
        file: "/mnt/user-data/f.txt",
        start_line: 1,
        end_line: 3,
      });
      expect(res.json()).toEqual({ success: true, data: { file: "/mnt/user-data/f.txt", content: "l2\nl3" } });
    });

    it("writes utf-8 text and appends", async () => {
      const sandbox = await create();
      await post("/sandboxes/sb1/v1/file/write", { file: "/mnt/user-data/a.txt", content: "hé" });
      const res = await post("/sandboxes/sb1/v1/file/write", {
        file: "/mnt/user-data/a.txt",
        content: "!",
        append: true,
      });
      expect((res.json() as { data: Json }).data).toEqual({ file: "/mnt/user-data/a.txt", bytes_written: 1 });
      expect(await sandbox.readFile("/mnt/user-data/a.txt")).toBe("hé!");
    });

    it("writes base64 content as bytes", async () => {
      const sandbox = await create();
      const res = await post("/sandboxes/sb1/v1/file/write", {
        file: "/mnt/user-data/b.bin",
        content: "AP8A",
        encoding: "base64",
      });
      expect((res.json() as { data: Json }).data).toEqual({ file: "/mnt/user-data/b.bin", bytes_written: 3 });
      expect(Array.from(await sandbox.readBytes("/mnt/user-data/b.bin"))).toEqual([0, 255, 0]);
    });

    it("rejects malformed base64", async () => {
      await create();
      const res = await post("/sandboxes/sb1/v1/file/write", {
        file: "/mnt/user-data/b.bin",
        content: "AP8*",
        encoding: "base64",
      });
      expect(errorOf(res).code).toBe("INVALID_ARGUMENT");
    });

    it("rejects append with base64", async () => {
      await create();
      const res = await post("/sandboxes/sb1/v1/file/write", {
        file: "/mnt/user-data/b.bin",
        content: "AP8A",
        encoding: "base64",
        append: true,
      });
      expect(errorOf(res).code).toBe("INVALID_ARGUMENT");
    });

    it("lists one level unless recursive", async () => {
      const sandbox = await create();
      await sandbox.writeFile("/mnt/user-data/w/d/f.txt", "");
      const flat = await post("/sandboxes/sb1/v1/file/list", { path: "/mnt/user-data/w" });
      expect((flat.json() as { data: Json }).data).toEqual({
        path: "/mnt/user-data/w",
        files: [{ name: "d", path: "/mnt/user-data/w/d", is_directory: true }],
        total_count: 1,
      });
      const deep = await post("/sandboxes/sb1/v1/file/list", { path: "/mnt/user-data/w", recursive: true });
      expect((deep.json() as { data: { files: Json[] } }).data.files.map((f) => f.path)).toEqual([
        "/mnt/user-data/w/d",
        "/mnt/user-data/w/d/f.txt",
      ]);
    });

    it("finds files by glob", async () => {
      const sandbox = await create();
      await sandbox.writeFile("/mnt/user-data/w/a.md", "");
      await sandbox.writeFile("/mnt/user-data/w/b.txt", "");
      const res = await post("/sandboxes/sb1/v1/file/find", { path: "/mnt/user-data/w", glob: "**/*.md" });
      expect((res.json() as { data: Json }).data).toEqual({
        path: "/mnt/user-data/w",
        files: ["/mnt/user-data/w/a.md"],
        truncated: false,
      });
    });

    it("greps with the sandbox's default case-insensitivity when case_insensitive is absent", async () => {
      const sandbox = await create();
      await sandbox.writeFile("/mnt/user-data/w/a.txt", "Hello\nbye");
      const loose = await post("/sandboxes/sb1/v1/file/grep", { path: "/mnt/user-data/w", pattern: "hello" });
      expect((loose.json() as { data: Json }).data).toEqual({
        path: "/mnt/user-data/w",
        matches: [{ file: "/mnt/user-data/w/a.txt", line_number: 1, line: "Hello" }],
        truncated: false,
      });
      const strict = await post("/sandboxes/sb1/v1/file/grep", {
        path: "/mnt/user-data/w",
        pattern: "hello",
        case_insensitive: false,
      });
      expect((strict.json() as { data: { matches: unknown[] } }).data.matches).toEqual([]);
    });

    it("downloads bytes as application/octet-stream", async () => {
      const sandbox = await create();
      await sandbox.writeBytes("/mnt/user-data/outputs/r é.bin", new Uint8Array([1, 2, 3]));
      const res = await app.inject({
        method: "GET",
        url: `/sandboxes/sb1/v1/file/download?path=${encodeURIComponent("/mnt/user-data/outputs/r é.bin")}`,
        headers: auth,
      });
      expect(res.headers["content-type"]).toBe("application/octet-stream");
      expect(res.headers["content-disposition"]).toBe(
        `attachment; filename="r _.bin"; filename*=UTF-8''r%20%C3%A9.bin`,
      );
      expect(Array.from(res.rawPayload)).toEqual([1, 2, 3]);
    });
  });

  describe("error mapping", () => {
    it.each([
      ["NOT_FOUND", 404, { file: "/mnt/user-data/missing.txt" }],
      ["PATH_ESCAPE", 403, { file: "/mnt/user-data/../etc/passwd" }],
      ["PATH_NOT_ALLOWED", 403, { file: "/etc/passwd" }],
    ])("answers %s with %i and the sandbox's message and path", async (code, status, body) => {
      await create();
      const res = await post("/sandboxes/sb1/v1/file/read", body);
      expect(res.statusCode).toBe(status);
      expect(errorOf(res)).toMatchObject({ code, path: body.file });
    });

    it("answers READ_ONLY with 403", async () => {
      await create();
      const res = await post("/sandboxes/sb1/v1/file/write", { file: "/mnt/skills/public/x", content: "" });
      expect([res.statusCode, errorOf(res).code]).toEqual([403, "READ_ONLY"]);
    });

    it.each([
      ["IS_A_DIRECTORY", 409],
      ["TIMEOUT", 504],
      ["UNAVAILABLE", 503],
      ["HOST_EXECUTION_DISABLED", 403],
      ["CONFIG_INVALID", 500],
    ] as const)("answers %s with %i", async (code, status) => {
      const sandbox = await create();
      sandbox.executeHandler = async () => {
        throw new SandboxError(code, `failed: ${code}`);
      };
      const res = await post("/sandboxes/sb1/v1/shell/exec", { command: "x" });
      expect(res.statusCode).toBe(status);
      expect(errorOf(res)).toEqual({ code, message: `failed: ${code}` });
    });

    it("answers 500 INTERNAL without the message of an unexpected error", async () => {
      const sandbox = await create();
      sandbox.executeHandler = async () => {
        throw new Error("EACCES: /srv/host/secret/path");
      };
      const res = await post("/sandboxes/sb1/v1/shell/exec", { command: "x" });
      expect(res.statusCode).toBe(500);
      expect(errorOf(res)).toEqual({ code: "INTERNAL", message: "Internal error" });
      expect(res.body).not.toContain("/srv/host");
    });
  });
});
