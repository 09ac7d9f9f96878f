import { randomBytes } from "node:crypto";
import { mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayError, type GatewayOptions } from "../index.js";
import { ADMIN_KEY, USER_KEY, createFixture, putThreadFile, type Fixture } from "../../test/support/fixture.js";
import { multipartBody, type FormFile } from "../../test/support/multipart.js";

const admin = { "x-api-key": ADMIN_KEY };
const alice = { "x-api-key": USER_KEY };

describe("thread files routes", () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx.close();
  });

  async function setup(gateway: Partial<GatewayOptions> = {}, auth = false): Promise<Fixture> {
    fx = await createFixture({ auth, gateway });
    return fx;
  }

  const upload = (files: readonly FormFile[], thread = "t1", headers: Record<string, string> = {}) => {
    const body = multipartBody(files);
    return fx.app.inject({
      method: "POST",
      url: `/api/threads/${thread}/uploads`,
      payload: body.payload,
      headers: { ...headers, ...body.headers },
    });
  };
  const uploadsDir = async (thread = "t1", userId = "default") =>
    readdir(path.join(fx.userData(thread, userId), "uploads")).catch(() => [] as string[]);

  describe("POST /api/threads/:thread_id/uploads", () => {
    it("stores several files and describes them", async () => {
      await setup();
      const res = await upload([
        { filename: "notes.md", data: "# Notes\n" },
        { filename: "data.csv", data: "a,b\n1,2\n" },
      ]);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.message).toBe("Successfully uploaded 2 file(s)");
      expect(body.files).toEqual([
        {
          filename: "notes.md",
          size: 8,
          path: "/mnt/user-data/uploads/notes.md",
          virtual_path: "/mnt/user-data/uploads/notes.md",
          modified: expect.any(Number),
          artifact_url: "/api/threads/t1/artifacts/mnt/user-data/uploads/notes.md",
        },
        {
          filename: "data.csv",
          size: 8,
          path: "/mnt/user-data/uploads/data.csv",
          virtual_path: "/mnt/user-data/uploads/data.csv",
          modified: expect.any(Number),
          artifact_url: "/api/threads/t1/artifacts/mnt/user-data/uploads/data.csv",
        },
      ]);
      expect((await uploadsDir()).sort()).toEqual(["data.csv", "notes.md"]);
    });

    it("strips directories from file names", async () => {
      await setup();
      const res = await upload([
        { filename: "../../../etc/cron.d/evil", data: "x" },
        { filename: "C:\\Users\\me\\report.txt", data: "y" },
        { filename: "/abs/data.bin", data: "z" },
      ]);
      expect(res.json().files.map((f: { filename: string }) => f.filename)).toEqual(["evil", "report.txt", "data.bin"]);
      expect((await uploadsDir()).sort()).toEqual(["data.bin", "evil", "report.txt"]);
    });

    it.each([
      ["..", 'Invalid filename: ".."'],
      ["a/..", 'Invalid filename: "a/.."'],
      ["", 'Invalid filename: ""'],
      [".bashrc", 'Invalid filename: ".bashrc" (hidden files are not accepted)'],
    ])("rejects the name %j and writes nothing, not even the valid files", async (filename, detail) => {
      await setup();
      const res = await upload([
        { filename: "ok.txt", data: "ok" },
        { filename, data: "x" },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail });
      expect(await uploadsDir()).toEqual([]);
    });

    it("rejects a NUL byte in a name", async () => {
      await setup();
      const res = await upload([{ filename: "a\u0000.txt", data: "x" }]);
      expect(res.statusCode).toBe(400);
      expect(await uploadsDir()).toEqual([]);
    });

    it("answers an oversize file with 413 and leaves nothing half-written", async () => {
      await setup({ uploads: { maxFileBytes: 1024 } });
      const res = await upload([
        { filename: "small.txt", data: "fine" },
        { filename: "big.bin", data: randomBytes(4096) },
      ]);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ detail: 'File too large: "big.bin" exceeds the 1024-byte limit.' });
      expect(await uploadsDir()).toEqual([]);
    });

    it("answers too many files with 413", async () => {
      await setup({ uploads: { maxFiles: 2 } });
      const res = await upload([1, 2, 3].map((i) => ({ filename: `f${i}.txt`, data: String(i) })));
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ detail: "Too many files: at most 2 per request." });
      expect(await uploadsDir()).toEqual([]);
    });

    it("answers files over the total limit with 413", async () => {
      await setup({ uploads: { maxFileBytes: 1000, maxTotalBytes: 1500 } });
      const res = await upload([
        { filename: "a.bin", data: randomBytes(900) },
        { filename: "b.bin", data: randomBytes(900) },
      ]);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ detail: "Upload too large: the files exceed 1500 bytes in total." });
      expect(await uploadsDir()).toEqual([]);
    });

    it("answers a request without files with 400 and a JSON body with 415", async () => {
      await setup();
      expect((await upload([])).json()).toEqual({ detail: "No files were uploaded." });
      const json = await fx.app.inject({ method: "POST", url: "/api/threads/t1/uploads", payload: { files: [] } });
      expect(json.statusCode).toBe(415);
      expect(json.json()).toEqual({ detail: "Request must be multipart/form-data." });
    });

    it("validates the thread id", async () => {
      await setup();
      const res = await upload([{ filename: "a.txt", data: "a" }], "bad.id");
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        detail: [
          {
            loc: ["path", "thread_id"],
            msg: "String should match pattern '^[A-Za-z0-9_-]{1,64}$'",
            type: "string_pattern_mismatch",
          },
        ],
      });
    });

    it("accepts UUID thread ids", async () => {
      await setup();
      expect(
        (await upload([{ filename: "a.txt", data: "a" }], "0b7a4c3e-5f1d-4e2a-9c8b-7d6e5f4a3b2c")).statusCode,
      ).toBe(200);
    });

    it("keeps users' threads apart", async () => {
      await setup({}, true);
      await upload([{ filename: "mine.txt", data: "alice" }], "t1", alice);
      expect(await uploadsDir("t1", "alice")).toEqual(["mine.txt"]);
      const list = await fx.app.inject({ url: "/api/threads/t1/uploads/list", headers: admin });
      expect(list.json()).toEqual({ files: [], count: 0 });
    });

    it("runs authorizeThread first", async () => {
      await setup({
        authorizeThread: async (_p, threadId) => {
          if (threadId !== "mine") throw new GatewayError("NOT_FOUND", `Thread ${threadId} not found`);
        },
      });
      const res = await upload([{ filename: "a.txt", data: "a" }], "theirs");
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: "Thread theirs not found" });
      expect((await upload([{ filename: "a.txt", data: "a" }], "mine")).statusCode).toBe(200);
    });
  });

  describe("GET /api/threads/:thread_id/uploads/list", () => {
    it("lists uploads with count", async () => {
      await setup();
      await upload([
        { filename: "b.txt", data: "bb" },
        { filename: "a.txt", data: "a" },
      ]);
      const res = await fx.app.inject({ url: "/api/threads/t1/uploads/list" });
      expect(res.json()).toMatchObject({
        count: 2,
        files: [
          { filename: "a.txt", size: 1 },
          { filename: "b.txt", size: 2 },
        ],
      });
    });

    it("answers an empty list for an unknown thread", async () => {
      await setup();
      expect((await fx.app.inject({ url: "/api/threads/never/uploads/list" })).json()).toEqual({ files: [], count: 0 });
    });
  });

  describe("DELETE /api/threads/:thread_id/uploads/:filename", () => {
    it("deletes an upload", async () => {
      await setup();
      await upload([{ filename: "a.txt", data: "a" }]);
      const res = await fx.app.inject({ method: "DELETE", url: "/api/threads/t1/uploads/a.txt" });
      expect(res.json()).toEqual({ success: true, message: "Deleted a.txt" });
      expect(await uploadsDir()).toEqual([]);
    });

    it("answers 404 for a missing file", async () => {
      await setup();
      const res = await fx.app.inject({ method: "DELETE", url: "/api/threads/t1/uploads/none.txt" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: "File not found: /mnt/user-data/uploads/none.txt" });
    });

    it.each(["..%2Foutputs%2Freport.md", "..%5C..%5Cx", "%2Fetc%2Fpasswd"])(
      "answers traversal %s with 403",
      async (name) => {
        await setup();
        await putThreadFile(fx, "t1", "outputs/report.md", "keep");
        const res = await fx.app.inject({ method: "DELETE", url: `/api/threads/t1/uploads/${name}` });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: "Access denied: path traversal detected" });
      },
    );

    it("answers a NUL byte with 400", async () => {
      await setup();
      expect((await fx.app.inject({ method: "DELETE", url: "/api/threads/t1/uploads/a%00.txt" })).statusCode).toBe(400);
    });
  });

  describe("GET /api/threads/:thread_id/artifacts/*", () => {
    it("serves a file inline with its type and length", async () => {
      await setup();
      await putThreadFile(fx, "t1", "outputs/report.md", "# Report\n");
      const res = await fx.app.inject({ url: "/api/threads/t1/artifacts/mnt/user-data/outputs/report.md" });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe("# Report\n");
      expect(res.headers["content-type"]).toBe("text/markdown; charset=utf-8");
      expect(res.headers["content-length"]).toBe("9");
      expect(res.headers["content-disposition"]).toBe(`inline; filename="report.md"; filename*=UTF-8''report.md`);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["content-security-policy"]).toBeUndefined();
    });

    it("answers HEAD with the headers only", async () => {
      await setup();
      await putThreadFile(fx, "t1", "outputs/report.md", "# Report\n");
      const res = await fx.app.inject({
        method: "HEAD",
        url: "/api/threads/t1/artifacts/mnt/user-data/outputs/report.md",
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-length"]).toBe("9");
      expect(res.body).toBe("");
    });

    it("serves an attachment with ?download=true", async () => {
      await setup();
      await putThreadFile(fx, "t1", "outputs/charts/q1.png", Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      const res = await fx.app.inject({
        url: "/api/threads/t1/artifacts/mnt/user-data/outputs/charts/q1.png?download=true",
      });
      expect(res.headers["content-type"]).toBe("image/png");
      expect(res.headers["content-disposition"]).toBe(`attachment; filename="q1.png"; filename*=UTF-8''q1.png`);
      expect(res.rawPayload).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    });

    it("sandboxes agent-written HTML", async () => {
      await setup();
      await putThreadFile(fx, "t1", "outputs/page.html", "<script>alert(1)</script>");
      const res = await fx.app.inject({ url: "/api/threads/t1/artifacts/mnt/user-data/outputs/page.html" });
      expect(res.headers["content-security-policy"]).toBe("sandbox");
    });

    it("serves uploads and the workspace too", async () => {
      await setup();
      await putThreadFile(fx, "t1", "workspace/main.py", "print(1)\n");
      expect((await fx.app.inject({ url: "/api/threads/t1/artifacts/mnt/user-data/workspace/main.py" })).body).toBe(
        "print(1)\n",
      );
    });

    it.each([
      ["an encoded ../", "mnt/user-data/outputs/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd", 403],
      ["an encoded ..\\", "mnt/user-data/outputs/..%5C..%5C..%5Cetc%5Cpasswd", 403],
      ["a double slash absolute path", "/etc/passwd", 400],
      ["another root", "etc/passwd", 400],
      ["a NUL byte", "mnt/user-data/outputs/report.md%00.png", 400],
      ["a missing file", "mnt/user-data/outputs/none.md", 404],
      ["a folder", "mnt/user-data/outputs", 400],
      ["the user-data root", "mnt/user-data", 400],
    ])("answers %s with %i", async (_l, p, status) => {
      await setup();
      await putThreadFile(fx, "t1", "outputs/report.md", "# Report\n");
      const res = await fx.app.inject({ url: `/api/threads/t1/artifacts/${p}` });
      expect(res.statusCode).toBe(status);
      expect(typeof res.json().detail).toBe("string");
    });

    it("answers a symlink escaping the thread with 403", async () => {
      await setup();
      const secret = path.join(fx.dir, "secret.txt");
      await writeFile(secret, "top secret");
      await mkdir(path.join(fx.userData("t1"), "outputs"), { recursive: true });
      await symlink(secret, path.join(fx.userData("t1"), "outputs", "leak.txt"));
      await symlink(fx.dir, path.join(fx.userData("t1"), "outputs", "all"));
      for (const p of ["leak.txt", "all/secret.txt"]) {
        const res = await fx.app.inject({ url: `/api/threads/t1/artifacts/mnt/user-data/outputs/${p}` });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: "Access denied: path traversal detected" });
        expect(res.body).not.toContain("top secret");
      }
    });

    it("does not serve another user's thread", async () => {
      await setup({}, true);
      await putThreadFile(fx, "t1", "outputs/private.md", "alice only", "alice");
      expect(
        (await fx.app.inject({ url: "/api/threads/t1/artifacts/mnt/user-data/outputs/private.md", headers: alice }))
          .statusCode,
      ).toBe(200);
      expect(
        (await fx.app.inject({ url: "/api/threads/t1/artifacts/mnt/user-data/outputs/private.md", headers: admin }))
          .statusCode,
      ).toBe(404);
    });

    it("requires a key when auth is on", async () => {
      await setup({}, true);
      expect((await fx.app.inject({ url: "/api/threads/t1/artifacts/mnt/user-data/outputs/x.md" })).statusCode).toBe(
        401,
      );
    });
  });

  describe("GET /api/threads/:thread_id/files", () => {
    it("lists outputs recursively and uploads", async () => {
      await setup();
      await putThreadFile(fx, "t1", "outputs/report.md", "r");
      await putThreadFile(fx, "t1", "outputs/charts/q1.png", "png");
      await putThreadFile(fx, "t1", "uploads/data.csv", "a,b");
      await putThreadFile(fx, "t1", "workspace/scratch.txt", "not listed");
      const res = await fx.app.inject({ url: "/api/threads/t1/files" });
      const body = res.json() as {
        outputs: Array<{ path: string; artifact_url: string }>;
        uploads: Array<{ path: string }>;
      };
      expect(body.outputs.map((f) => f.path)).toEqual([
        "/mnt/user-data/outputs/charts/q1.png",
        "/mnt/user-data/outputs/report.md",
      ]);
      expect(body.outputs[0]?.artifact_url).toBe("/api/threads/t1/artifacts/mnt/user-data/outputs/charts/q1.png");
      expect(body.uploads.map((f) => f.path)).toEqual(["/mnt/user-data/uploads/data.csv"]);
    });

    it("answers empty lists for a new thread", async () => {
      await setup();
      expect((await fx.app.inject({ url: "/api/threads/new-thread/files" })).json()).toEqual({
        outputs: [],
        uploads: [],
      });
    });
  });
});
