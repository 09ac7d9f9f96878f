/**
 * One file of a `.skill` archive in a thread's user data, served like any
 * artifact (DeerFlow previews `SKILL.md` this way before an install).
 *
 * The archive is read with `@deerflow/skills`' reader, under the install's
 * member-name rules, from a private copy: an agent cannot swap the file
 * between the checks and the read (as for `POST /skills/install`).
 */
import path from "node:path";
import { Readable } from "node:stream";
import { MAX_ARCHIVE_PREVIEW_BYTES, readSkillArchiveMember } from "@deerflow/skills";
import { GatewayError } from "../errors.js";
import { copyArchive, privateDir } from "../skills/archive-copy.js";
import { contentTypeFor } from "./content-type.js";
import type { SkillArchivePath } from "./skill-archive-path.js";
import type { ByteRange, OpenedThreadFile, ThreadFiles, ThreadScope } from "./thread-files.js";

/** Limits and temp folder of archive previews. */
export interface ArchivePreviewOptions {
  /** Largest archive copied for a preview. */
  readonly maxArchiveBytes: number;
  /** Largest member returned. Default 16 MiB (DeerFlow's). */
  readonly maxMemberBytes?: number;
  /** Parent of the private copy (default `os.tmpdir()`). */
  readonly tempDir?: string;
}

/** An archive member, ready to serve. */
export interface OpenedArchiveMember extends OpenedThreadFile {
  /** Its content type: by extension, else `text/plain` when the bytes are UTF-8 text (as DeerFlow). */
  readonly contentType: string;
}

const TEXT_PLAIN = "text/plain; charset=utf-8";

function looksLikeText(data: Buffer): boolean {
  if (data.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

function codeOf(err: unknown): unknown {
  return typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
}

/**
 * Opens `split.member` of the archive `split.archive`.
 *
 * @param files - the thread files.
 * @param scope - the thread.
 * @param split - the archive and the member path.
 * @param options - limits and temp folder.
 * @returns the member; its `modified` is the archive's.
 * @throws GatewayError `FILE_NOT_FOUND` (`Skill file not found: <archive>`), `NOT_A_FILE` (the archive
 *   path is a folder), `FILE_TOO_LARGE` (413, `Skill archive member is too large to preview`, or too many
 *   entries), `BAD_REQUEST` (archive over `maxArchiveBytes`); SkillsError `FILE_NOT_FOUND` (404, `File '<p>'
 *   not found in skill archive`), `ARCHIVE_UNSAFE` / `ARCHIVE_INVALID` / `INVALID_PATH` (400).
 */
export async function openSkillArchiveMember(
  files: ThreadFiles,
  scope: ThreadScope,
  split: SkillArchivePath,
  options: ArchivePreviewOptions,
): Promise<OpenedArchiveMember> {
  const archive = await files.open(scope, split.archive).catch((err: unknown) => {
    if (codeOf(err) === "FILE_NOT_FOUND")
      throw new GatewayError("FILE_NOT_FOUND", `Skill file not found: ${split.archive.virtualPath}`);
    throw err;
  });
  let member;
  try {
    const tmp = await privateDir(options.tempDir);
    try {
      const copy = await copyArchive(archive.read(), tmp.dir, options.maxArchiveBytes);
      member = await readSkillArchiveMember(copy, split.member, {
        maxBytes: options.maxMemberBytes ?? MAX_ARCHIVE_PREVIEW_BYTES,
      });
    } finally {
      await tmp.dispose();
    }
  } catch (err) {
    if (codeOf(err) === "ARCHIVE_TOO_LARGE")
      throw new GatewayError("FILE_TOO_LARGE", (err as Error).message, { cause: err });
    throw err;
  } finally {
    await archive.close();
  }
  const data = member.data;
  const name = path.posix.basename(member.name);
  const byExtension = contentTypeFor(name);
  return {
    size: data.length,
    modified: archive.modified,
    name,
    contentType: byExtension === "application/octet-stream" && looksLikeText(data) ? TEXT_PLAIN : byExtension,
    read: (range?: ByteRange) =>
      Readable.from([range === undefined ? data : data.subarray(range.start, range.end + 1)]),
    close: async () => undefined,
  };
}
