import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DocumentConverter } from "../index.js";
import { createFixture, putThreadFile, type Fixture } from "../../test/support/fixture.js";
import { multipartBody, type FormFile } from "../../test/support/multipart.js";
import { companionRecordName } from "./markdown-companion.js";

const converter: DocumentConverter = {
  accepts: (name) => name.toLowerCase().endsWith(".pdf"),
  toMarkdown: async (data, name) => `# ${name}\n\n${Buffer.from(data).toString("utf8")}\n`,
};

describe("DELETE /threads/:id/uploads/:filename and the Markdown companion", () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx.close();
  });

  const upload = (files: readonly FormFile[]) => {
    const body = multipartBody(files);
    return fx.app.inject({
      method: "POST",
      url: "/api/threads/t1/uploads",
      payload: body.payload,
      headers: body.headers,
    });
  };
  const remove = (name: string) =>
    fx.app.inject({ method: "DELETE", url: `/api/threads/t1/uploads/${encodeURIComponent(name)}` });
  const uploadsDir = () => path.join(fx.userData("t1", "default"), "uploads");
  const folder = async () => (await readdir(uploadsDir())).sort();

  it("removes the generated companion (and its hidden record) with the document", async () => {
    fx = await createFixture({ gateway: { documentConverter: converter } });
    expect((await upload([{ filename: "report.pdf", data: "numbers" }])).json().files[0].markdown_file).toBe(
      "report.md",
    );
    expect(await folder()).toEqual([companionRecordName("report.pdf"), "report.md", "report.pdf"].sort());
    const res = await remove("report.pdf");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: "Deleted report.pdf" });
    expect(await folder()).toEqual([]);
  });

  it("removes report_1.md, never the user's own report.md", async () => {
    fx = await createFixture({ gateway: { documentConverter: converter } });
    await putThreadFile(fx, "t1", "uploads/report.md", "mine");
    expect((await upload([{ filename: "report.pdf", data: "x" }])).json().files[0].markdown_file).toBe("report_1.md");
    expect((await remove("report.pdf")).statusCode).toBe(200);
    expect(await folder()).toEqual(["report.md"]);
    expect(await readFile(path.join(uploadsDir(), "report.md"), "utf8")).toBe("mine");
  });

  it("keeps a companion the user has since replaced with a file of their own", async () => {
    fx = await createFixture({ gateway: { documentConverter: converter } });
    await upload([{ filename: "report.pdf", data: "x" }]);
    await upload([{ filename: "report.md", data: "my own notes, uploaded over the companion" }]);
    expect((await remove("report.pdf")).statusCode).toBe(200);
    expect(await folder()).toEqual(["report.md"]);
  });

  it("a new upload of the document replaces its companion instead of adding report_1.md", async () => {
    fx = await createFixture({ gateway: { documentConverter: converter } });
    await upload([{ filename: "report.pdf", data: "first" }]);
    const again = await upload([{ filename: "report.pdf", data: "second" }]);
    expect(again.json().files[0].markdown_file).toBe("report.md");
    expect(await readFile(path.join(uploadsDir(), "report.md"), "utf8")).toBe("# report.pdf\n\nsecond\n");
    expect(await folder()).toEqual([companionRecordName("report.pdf"), "report.md", "report.pdf"].sort());
  });

  it("ignores a malformed or foreign record and deletes plain files as before", async () => {
    fx = await createFixture({ gateway: { documentConverter: converter } });
    await putThreadFile(fx, "t1", "uploads/notes.txt", "plain");
    await putThreadFile(fx, "t1", "uploads/keep.md", "keep");
    // A record that is not JSON, and one naming another upload as its source.
    await writeFile(path.join(uploadsDir(), companionRecordName("notes.txt")), "{not json");
    await putThreadFile(fx, "t1", "uploads/data.pdf", "d");
    await writeFile(
      path.join(uploadsDir(), companionRecordName("data.pdf")),
      JSON.stringify({ source: "other.pdf", markdown: "keep.md", size: 4, modified: 0 }),
    );
    expect((await remove("notes.txt")).statusCode).toBe(200);
    expect((await remove("data.pdf")).statusCode).toBe(200);
    expect(await folder()).toEqual(["keep.md"]);
    expect((await remove("missing.pdf")).statusCode).toBe(404);
  });
});
