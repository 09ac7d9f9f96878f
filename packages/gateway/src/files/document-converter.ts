/**
 * Document text extraction on upload (DeerFlow's `uploads.auto_convert_documents`,
 * §6.2): an uploaded document the injected {@link DocumentConverter} accepts
 * gets a Markdown companion next to it in `/mnt/user-data/uploads` — `report.md`
 * for `report.pdf`, else `report_1.md`... — never replacing a file already there
 * or another file of the same request, except the companion an earlier upload
 * of the same name got (see `markdown-companion.ts`, which also lets a delete
 * of the upload remove its companion). The gateway only calls the interface,
 * so it does not depend on any parser; a conversion that fails leaves the
 * upload without a companion (logged), it never fails the upload.
 */
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { ThreadFileInfo, ThreadFiles, ThreadScope } from "./thread-files.js";
import { findMarkdownCompanion, recordMarkdownCompanion } from "./markdown-companion.js";
import { claimUniqueName } from "./unique-name.js";
import { parseUserDataPath } from "./virtual-path.js";

/** Turns documents into Markdown (the server's implementation uses PDF and DOCX parsers). */
export interface DocumentConverter {
  /** Whether a file of this name gets a companion (e.g. by extension: `.pdf`, `.docx`). */
  accepts(filename: string): boolean;
  /**
   * @param data - the uploaded bytes
   * @param filename - the stored name (for the format, and for messages)
   * @returns the document's text as Markdown
   */
  toMarkdown(data: Uint8Array, filename: string): Promise<string>;
}

async function readAll(files: ThreadFiles, scope: ThreadScope, info: ThreadFileInfo): Promise<Uint8Array> {
  const opened = await files.open(scope, parseUserDataPath(info.path));
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of opened.read()) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  } finally {
    await opened.close();
  }
}

async function* once(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, "utf8");
}

/**
 * Writes a Markdown companion for each accepted upload.
 *
 * @param files - the thread's files
 * @param scope - the thread
 * @param stored - the files just uploaded (already committed)
 * @param converter - the converter
 * @param logger - receives conversion failures
 * @returns the companion of each converted upload, keyed by the upload's name
 */
export async function writeMarkdownCompanions(
  files: ThreadFiles,
  scope: ThreadScope,
  stored: readonly ThreadFileInfo[],
  converter: DocumentConverter,
  logger?: FastifyBaseLogger,
): Promise<Map<string, ThreadFileInfo>> {
  const companions = new Map<string, ThreadFileInfo>();
  const wanted = stored.filter((f) => converter.accepts(f.filename));
  if (wanted.length === 0) return companions;
  // Every name in the folder (this request's uploads included) is taken: a companion never replaces one.
  const listed = await files.list(scope, "uploads");
  const claimed = new Set(listed.map((f) => f.filename));
  for (const info of wanted) {
    let markdown: string;
    try {
      markdown = await converter.toMarkdown(await readAll(files, scope, info), info.filename);
    } catch (err) {
      logger?.warn(
        { err, filename: info.filename },
        "document conversion failed; the upload has no Markdown companion",
      );
      continue;
    }
    const stem =
      info.filename.slice(0, info.filename.length - path.posix.extname(info.filename).length) || info.filename;
    // A new upload of the same name replaces its earlier companion rather than leaving it stale.
    const previous = await findMarkdownCompanion(files, scope, info.filename, listed);
    const name = previous ?? claimUniqueName(`${stem}.md`, claimed);
    claimed.add(name);
    const batch = await files.beginUpload(scope);
    let written: ThreadFileInfo | undefined;
    try {
      await batch.add(name, once(markdown));
      [written] = await batch.commit();
    } finally {
      await batch.abort();
    }
    if (written === undefined) continue;
    companions.set(info.filename, written);
    await recordMarkdownCompanion(files, scope, info.filename, written).catch((err: unknown) => {
      logger?.warn({ err, filename: info.filename }, "could not record the Markdown companion");
    });
  }
  return companions;
}
