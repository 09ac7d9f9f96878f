/**
 * Thread uploads over a real socket: same-named files, the file info fields,
 * the limits route and names that spoof or break other systems.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USER_KEY, type Fixture } from "../support/fixture.js";
import { listenFixture, type SocketFixture } from "../support/socket.js";

const user = { "x-api-key": USER_KEY };

interface WireFile {
  filename: string;
  size: number;
  path: string;
  virtual_path: string;
  artifact_url: string;
  original_filename?: string;
}
interface UploadAnswer {
  success: boolean;
  files: WireFile[];
  message: string;
  skipped_files: string[];
}

describe("thread uploads over a socket", () => {
  let sock: SocketFixture;
  let fx: Fixture;
  let thread = 0;

  beforeAll(async () => {
    sock = await listenFixture({
      auth: true,
      gateway: { uploads: { maxFiles: 7, maxFileBytes: 64 * 1024, maxTotalBytes: 256 * 1024 } },
    });
    fx = sock.fx;
  });
  afterAll(async () => {
    await fx.close();
  });

  /** A fresh thread per test, so tests share the server but not files. */
  const freshThread = () => `up-${(thread += 1)}`;

  async function upload(
    threadId: string,
    files: ReadonlyArray<[name: string, data: string]>,
  ): Promise<{ status: number; body: unknown }> {
    const form = new FormData();
    for (const [name, data] of files) form.append("files", new Blob([data]), name);
    const res = await fetch(sock.url(`/api/threads/${threadId}/uploads`), {
      method: "POST",
      body: form,
      headers: user,
    });
    return { status: res.status, body: await res.json() };
  }

  const uploadsDir = (threadId: string) => path.join(fx.userData(threadId, "alice"), "uploads");

  describe("same-named files in one request", () => {
    it("keeps every one of them as name, name_1, name_2 and reports the stored names", async () => {
      const t = freshThread();
      const { status, body } = await upload(t, [
        ["data.txt", "first"],
        ["data.txt", "second"],
        ["notes.md", "n"],
        ["dir/data.txt", "third"],
      ]);
      expect(status).toBe(200);
      const answer = body as UploadAnswer;
      expect(answer.files.map((f) => [f.filename, f.original_filename])).toEqual([
        ["data.txt", undefined],
        ["data_1.txt", "data.txt"],
        ["notes.md", undefined],
        ["data_2.txt", "data.txt"],
      ]);
      expect(answer.message).toBe("Successfully uploaded 4 file(s)");
      expect((await readdir(uploadsDir(t))).sort()).toEqual(["data.txt", "data_1.txt", "data_2.txt", "notes.md"]);
      for (const [name, text] of [
        ["data.txt", "first"],
        ["data_1.txt", "second"],
        ["data_2.txt", "third"],
      ] as const) {
        expect(await readFile(path.join(uploadsDir(t), name), "utf8")).toBe(text);
        const served = await fetch(sock.url(`/api/threads/${t}/artifacts/mnt/user-data/uploads/${name}`), {
          headers: user,
        });
        expect(await served.text()).toBe(text);
      }
    });

    it("does not collide with a name the request itself uses for a later file", async () => {
      const t = freshThread();
      const answer = (
        await upload(t, [
          ["a.txt", "1"],
          ["a.txt", "2"],
          ["a_1.txt", "3"],
        ])
      ).body as UploadAnswer;
      expect(answer.files.map((f) => f.filename)).toEqual(["a.txt", "a_1.txt", "a_1_1.txt"]);
      expect((await readdir(uploadsDir(t))).sort()).toEqual(["a.txt", "a_1.txt", "a_1_1.txt"]);
    });

    it("suffixes the last extension only, and keeps names without one", async () => {
      const t = freshThread();
      const answer = (
        await upload(t, [
          ["a.tar.gz", "1"],
          ["a.tar.gz", "2"],
          ["Makefile", "3"],
          ["Makefile", "4"],
        ])
      ).body as UploadAnswer;
      expect(answer.files.map((f) => f.filename)).toEqual(["a.tar.gz", "a.tar_1.gz", "Makefile", "Makefile_1"]);
    });

    it("replaces a file of the same name from an earlier request, as DeerFlow does", async () => {
      const t = freshThread();
      await upload(t, [["report.txt", "old"]]);
      const answer = (await upload(t, [["report.txt", "new"]])).body as UploadAnswer;
      expect(answer.files.map((f) => [f.filename, f.original_filename])).toEqual([["report.txt", undefined]]);
      expect(await readdir(uploadsDir(t))).toEqual(["report.txt"]);
      expect(await readFile(path.join(uploadsDir(t), "report.txt"), "utf8")).toBe("new");
    });
  });

  describe("file info", () => {
    it("carries virtual_path, size and the artifact URL, and never a host path", async () => {
      const t = freshThread();
      const { body } = await upload(t, [["report #1?.txt", "hello"]]);
      const answer = body as UploadAnswer;
      expect(answer).toEqual({
        success: true,
        files: [
          {
            filename: "report #1?.txt",
            size: 5,
            path: "/mnt/user-data/uploads/report #1?.txt",
            virtual_path: "/mnt/user-data/uploads/report #1?.txt",
            modified: expect.any(Number),
            artifact_url: `/api/threads/${t}/artifacts/mnt/user-data/uploads/report%20%231%3F.txt`,
          },
        ],
        message: "Successfully uploaded 1 file(s)",
        skipped_files: [],
      });
      // The URL works as given, although the name has '#' and '?'.
      const served = await fetch(sock.url(answer.files[0]?.artifact_url ?? ""), { headers: user });
      expect(await served.text()).toBe("hello");

      const list = await (await fetch(sock.url(`/api/threads/${t}/uploads/list`), { headers: user })).json();
      const all = await (await fetch(sock.url(`/api/threads/${t}/files`), { headers: user })).json();
      expect((list as { files: WireFile[] }).files[0]?.virtual_path).toBe("/mnt/user-data/uploads/report #1?.txt");
      expect((all as { uploads: WireFile[] }).uploads[0]?.virtual_path).toBe("/mnt/user-data/uploads/report #1?.txt");
      // The host folder (a temp dir holding the files root) appears in no field of any answer.
      for (const text of [JSON.stringify(answer), JSON.stringify(list), JSON.stringify(all)])
        expect(text).not.toContain(fx.dir);
    });
  });

  describe("GET /api/threads/:thread_id/uploads/limits", () => {
    it("answers the limits in force", async () => {
      const res = await fetch(sock.url(`/api/threads/${freshThread()}/uploads/limits`), { headers: user });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ max_files: 7, max_file_size: 64 * 1024, max_total_size: 256 * 1024 });
    });

    it("validates the thread id and needs a key", async () => {
      expect((await fetch(sock.url("/api/threads/bad.id/uploads/limits"), { headers: user })).status).toBe(422);
      expect((await fetch(sock.url("/api/threads/t1/uploads/limits"))).status).toBe(401);
    });
  });

  describe("names that spoof or break other systems", () => {
    it.each([
      ["a right-to-left override hiding an .exe", "invoice\u202Efdp.exe", "invoicefdp.exe"],
      ["bidi embeddings and isolates", "\u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069.txt", "abcdefg.txt"],
      ["zero-width characters", "pay\u200Bpal\u200C\u200D\u200E\u200F.pdf", "paypal.pdf"],
      ["a byte order mark and a word joiner", "\uFEFFnotes\u2060.md", "notes.md"],
      ["a Windows device name", "CON", "_CON"],
      ["a device name with an extension", "con.txt", "_con.txt"],
      ["a serial port with two extensions", "COM1.tar.gz", "_COM1.tar.gz"],
      ["a device name hidden by format characters", "N\u200BUL.log", "_NUL.log"],
      ["a colon (an NTFS stream)", "report.txt:hidden", "report.txt_hidden"],
      ["a clock time", "10:30 minutes.md", "10_30 minutes.md"],
    ])("neutralises %s", async (_label, sent, stored) => {
      const t = freshThread();
      const { status, body } = await upload(t, [[sent, "x"]]);
      expect(status).toBe(200);
      expect((body as UploadAnswer).files.map((f) => [f.filename, f.original_filename, f.virtual_path])).toEqual([
        [stored, sent, `/mnt/user-data/uploads/${stored}`],
      ]);
      expect(await readdir(uploadsDir(t))).toEqual([stored]);
    });

    it.each([
      ["a macOS screenshot name (narrow no-break space)", "Screenshot 2024-05-01 at 10.00.00\u202FAM.png"],
      ["a name that merely contains a device name", "console.log"],
      ["a device name that is not the first part", "my.con.txt"],
      ["non-Latin text", "报告 2024 — résumé.docx"],
    ])("keeps %s as it is", async (_label, name) => {
      const t = freshThread();
      const answer = (await upload(t, [[name, "x"]])).body as UploadAnswer;
      expect(answer.files.map((f) => [f.filename, f.original_filename])).toEqual([[name, undefined]]);
    });

    it.each([
      ["nothing but format characters", "\u202E\u200B\uFEFF", 'Invalid filename: "\u202E\u200B\uFEFF"'],
      [
        "a dot-file behind a format character",
        "\u202E.bashrc",
        'Invalid filename: "\u202E.bashrc" (hidden files are not accepted)',
      ],
      [
        "a C1 control character",
        "a\u0085b.txt",
        'Invalid filename: "a\u0085b.txt" (control characters are not allowed)',
      ],
      ["a line separator", "a\u2028b.txt", 'Invalid filename: "a\u2028b.txt" (control characters are not allowed)'],
    ])("refuses %s with 400 and stores nothing of the request", async (_label, name, detail) => {
      const t = freshThread();
      const { status, body } = await upload(t, [
        ["fine.txt", "ok"],
        [name, "x"],
      ]);
      expect(status).toBe(400);
      expect(body).toEqual({ detail });
      expect(await readdir(uploadsDir(t)).catch(() => [])).toEqual([]);
    });
  });
});
