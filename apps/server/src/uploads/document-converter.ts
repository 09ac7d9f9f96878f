/**
 * The server's {@link DocumentConverter} (DeerFlow's `uploads.auto_convert_documents`,
 * off by default because parsing untrusted documents on the host is a risk):
 * PDF text through Mozilla's `pdfjs-dist` (one `## Page N` section per page),
 * DOCX through `mammoth` (to HTML) and `turndown` (to Markdown). DeerFlow also
 * converts `.ppt`, `.pptx`, `.xls`, `.xlsx` and `.doc`; we deliberately do not
 * (no well-kept pure-JS parser for those formats).
 */
import path from "node:path";
import type { DocumentConverter } from "@deerflow/gateway";
import mammoth from "mammoth";
import TurndownService from "turndown";

/** Extensions that get a Markdown companion. */
const CONVERTIBLE_EXTENSIONS: ReadonlySet<string> = new Set([".pdf", ".docx"]);

interface PdfTextItem {
  readonly str?: string;
  readonly hasEOL?: boolean;
}

/**
 * The text of a PDF as Markdown.
 *
 * @param data - the PDF bytes
 * @returns one `## Page N` section per page with text
 */
export async function pdfToMarkdown(data: Uint8Array): Promise<string> {
  // The legacy build runs on Node without DOM globals; loaded on first use, so a server that never converts never loads it.
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  // pdf.js takes ownership of (and detaches) the buffer it is given: hand it a copy.
  const doc = await getDocument({
    data: new Uint8Array(data),
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  try {
    const sections: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const text = (content.items as PdfTextItem[])
        .map((item) => (item.str ?? "") + (item.hasEOL === true ? "\n" : ""))
        .join("")
        .replace(/[ \t]+\n/g, "\n")
        .trim();
      if (text !== "") sections.push(`## Page ${n}\n\n${text}`);
    }
    return `${sections.join("\n\n")}\n`;
  } finally {
    await doc.destroy();
  }
}

/**
 * A DOCX document as Markdown (headings, lists, tables and emphasis kept as mammoth maps them).
 *
 * @param data - the DOCX bytes
 * @returns the Markdown
 */
export async function docxToMarkdown(data: Uint8Array): Promise<string> {
  const { value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(data) });
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  return `${turndown.turndown(html).trim()}\n`;
}

/**
 * Creates the converter for the gateway's `documentConverter` option.
 *
 * @returns a converter accepting `.pdf` and `.docx` uploads
 */
export function createDocumentConverter(): DocumentConverter {
  return {
    accepts: (filename) => CONVERTIBLE_EXTENSIONS.has(path.extname(filename).toLowerCase()),
    toMarkdown: (data, filename) =>
      path.extname(filename).toLowerCase() === ".pdf" ? pdfToMarkdown(data) : docxToMarkdown(data),
  };
}
