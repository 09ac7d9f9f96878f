import { describe, expect, it } from "vitest";
import { docx, pdfWithPages } from "../../test/support/documents.js";
import { createDocumentConverter, docxToMarkdown, pdfToMarkdown } from "./document-converter.js";

describe("document conversion", () => {
  it("extracts a PDF's text, one section per page", async () => {
    expect(await pdfToMarkdown(pdfWithPages(["Hello PDF world", "Second page here"]))).toBe(
      "## Page 1\n\nHello PDF world\n\n## Page 2\n\nSecond page here\n",
    );
  });

  it("turns a DOCX into Markdown with its heading and emphasis", async () => {
    expect(await docxToMarkdown(docx())).toBe("# Quarterly Report\n\nRevenue grew **twelve percent**.\n");
  });

  it("accepts .pdf and .docx only, and rejects a broken file", async () => {
    const converter = createDocumentConverter();
    expect(["a.pdf", "B.DOCX", "c.doc", "d.pptx", "e.txt"].map((n) => converter.accepts(n))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    await expect(converter.toMarkdown(Buffer.from("not a pdf"), "x.pdf")).rejects.toThrow();
    await expect(converter.toMarkdown(Buffer.from("not a zip"), "x.docx")).rejects.toThrow();
  });
});
