/**
 * Which Markdown companion belongs to which upload. A companion's name is
 * claimed uniquely (`report.md`, `report_1.md`...), so it cannot be derived
 * from the upload's name: `report.md` may be the user's own file. Each
 * companion written gets a hidden record in the uploads folder
 * (`.markdown-companion-<hash of the upload's name>.json`: the upload, the
 * companion, and the companion's size and modification time), so that
 * deleting the upload removes its companion (DeerFlow §6.1) and a new upload
 * of the same name replaces it rather than leaving a stale one. A record is
 * trusted only while the companion is unchanged: a file the user uploaded
 * over it is never deleted with the document.
 */
import { createHash } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { ThreadFileInfo, ThreadFiles, ThreadScope } from "./thread-files.js";
import { parseUserDataPath, virtualPathOf } from "./virtual-path.js";

/** Largest record read (a record is ~300 bytes; anything bigger is not ours). */
const MAX_RECORD_BYTES = 4096;

interface CompanionRecord {
  readonly source: string;
  readonly markdown: string;
  readonly size: number;
  readonly modified: number;
}

/**
 * @param source - the upload's name
 * @returns the hidden record's name (fixed length, whatever the upload's name)
 */
export function companionRecordName(source: string): string {
  return `.markdown-companion-${createHash("sha256").update(source, "utf8").digest("hex").slice(0, 32)}.json`;
}

const isCompanionName = (name: string, source: string): boolean =>
  name !== source && name.endsWith(".md") && !name.startsWith(".") && !/[\\/]/.test(name);

async function readRecord(
  files: ThreadFiles,
  scope: ThreadScope,
  source: string,
): Promise<CompanionRecord | undefined> {
  let opened;
  try {
    opened = await files.open(scope, parseUserDataPath(virtualPathOf("uploads", companionRecordName(source))));
  } catch {
    return undefined; // no record (or not a readable file): no known companion
  }
  try {
    if (opened.size > MAX_RECORD_BYTES) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.read()) chunks.push(Buffer.from(chunk as Uint8Array));
    const raw = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Partial<CompanionRecord> | null;
    if (
      raw?.source !== source ||
      typeof raw.markdown !== "string" ||
      !isCompanionName(raw.markdown, source) ||
      typeof raw.size !== "number" ||
      typeof raw.modified !== "number"
    )
      return undefined;
    return { source, markdown: raw.markdown, size: raw.size, modified: raw.modified };
  } catch {
    return undefined;
  } finally {
    await opened.close();
  }
}

/**
 * The companion of an upload, if its record names one that is still unchanged on disk.
 *
 * @param files - the thread's files
 * @param scope - the thread
 * @param source - the upload's name
 * @param listed - the uploads folder's listing, when the caller has it
 * @returns the companion's name, or `undefined`
 */
export async function findMarkdownCompanion(
  files: ThreadFiles,
  scope: ThreadScope,
  source: string,
  listed?: readonly ThreadFileInfo[],
): Promise<string | undefined> {
  const record = await readRecord(files, scope, source);
  if (record === undefined) return undefined;
  const current = (listed ?? (await files.list(scope, "uploads"))).find((f) => f.filename === record.markdown);
  return current !== undefined && current.size === record.size && current.modified === record.modified
    ? record.markdown
    : undefined;
}

async function* once(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, "utf8");
}

/**
 * Records that `companion` is the Markdown companion of `source` (replacing an earlier record).
 *
 * @param files - the thread's files
 * @param scope - the thread
 * @param source - the upload's name
 * @param companion - the companion as stored
 */
export async function recordMarkdownCompanion(
  files: ThreadFiles,
  scope: ThreadScope,
  source: string,
  companion: ThreadFileInfo,
): Promise<void> {
  const record: CompanionRecord = {
    source,
    markdown: companion.filename,
    size: companion.size,
    modified: companion.modified,
  };
  const batch = await files.beginUpload(scope);
  try {
    await batch.add(companionRecordName(source), once(JSON.stringify(record)));
    await batch.commit();
  } finally {
    await batch.abort();
  }
}

/**
 * Deletes an upload's Markdown companion and its record, after the upload itself was deleted.
 * Never throws: a companion that cannot be removed is logged and left.
 *
 * @param files - the thread's files
 * @param scope - the thread
 * @param source - the deleted upload's name
 * @param logger - receives failures
 * @returns the deleted companion's name, or `undefined` when there was none
 */
export async function deleteMarkdownCompanion(
  files: ThreadFiles,
  scope: ThreadScope,
  source: string,
  logger?: FastifyBaseLogger,
): Promise<string | undefined> {
  try {
    const companion = await findMarkdownCompanion(files, scope, source);
    if (companion !== undefined) await files.deleteUpload(scope, companion);
    await files.deleteUpload(scope, companionRecordName(source)).catch(() => undefined);
    return companion;
  } catch (err) {
    logger?.warn({ err, filename: source }, "could not delete the upload's Markdown companion");
    return undefined;
  }
}
