import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DocumentConverter } from "../index.js";
import { createFixture, putThreadFile, type Fixture } from "../../test/support/fixture.js";
import { multipartBody, type FormFile } from "../../test/support/multipart.js";

/** Converts `.pdf` by upper-casing its text; `broken.pdf` fails. */
const converter: DocumentConverter = {
  accepts: (name) => name.toLowerCase().endsWith(".pdf"),
  toMarkdown: async (data, name) => {
    if (name === "broken.pdf") throw new Error("not a PDF");
    return `# ${name}\n\n${Buffer.from(data).toString("utf8").toUpperCase()}\n`;
  },
};

describe("uploads with a document converter", () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx.close();
  });

  const upload = (files: readonly FormFile[], thread = "t1") => {
    const body = multipartBody(files);
    return fx.app.inject({
      method: "POST",
      url: `/api/threads/${thread}/uploads`,
      payload: body.payload,
      headers: body.headers,
    });
  };
  const uploads = (thread = "t1") => path.join(fx.userData(thread, "default"), "uploads");

  it("writes report.md next to report.pdf and describes it in the answer", async () => {
    fx = await createFixture({ gateway: { documentConverter: converter } });
    const res = await upload([
      { filename: "report.pdf", data: "quarterly numbers" },
      { filename: "notes.txt", data: "plain" },
    ]);
    expect(res.statusCode).toBe(200);
    const [pdf, txt] = res.json().files;
    expect(pdf).toMatchObject({
      filename: "report.pdf",
      markdown_file: "report.md",
      markdown_virtual_path: "/mnt/user-data/uploads/report.md",
      markdown_artifact_url: "/api/threads/t1/artifacts/mnt/user-data/uploads/report.md",
    });
    expect(txt.markdown_file).toBeUndefined();
    expect(await readFile(path.join(uploads(), "report.md"), "utf8")).toBe("# report.pdf\n\nQUARTERLY NUMBERS\n");
  });

  it("never replaces a user file: report_1.md when report.md exists, distinct names within a request", async () => {
    fx = await createFixture({ gateway: { documentConverter: converter } });
    await putThreadFile(fx, "t1", "uploads/report.md", "mine");
    const res = await upload([
      { filename: "report.pdf", data: "a" },
      { filename: "report.pdf", data: "b" },
    ]);
    expect(
      res.json().files.map((f: { filename: string; markdown_file?: string }) => [f.filename, f.markdown_file]),
    ).toEqual([
      ["report.pdf", "report_1.md"],
      ["report_1.pdf", "report_1_1.md"],
    ]);
    expect(await readFile(path.join(uploads(), "report.md"), "utf8")).toBe("mine");
  });

  it("keeps the upload without a companion when conversion fails, and converts nothing without a converter", async () => {
    fx = await createFixture({ gateway: { documentConverter: converter } });
    const res = await upload([{ filename: "broken.pdf", data: "x" }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().files[0].markdown_file).toBeUndefined();
    expect((await readdir(uploads())).sort()).toEqual(["broken.pdf"]);
    await fx.close();
    fx = await createFixture({});
    await upload([{ filename: "report.pdf", data: "a" }]);
    expect(await readdir(uploads())).toEqual(["report.pdf"]);
  });
});
