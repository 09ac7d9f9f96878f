/**
 * Reads one file out of a `.skill` archive without extracting it, for
 * previews (DeerFlow serves `.../x.skill/SKILL.md` through its artifacts
 * route).
 *
 * The archive goes through the same gate as an install: the central
 * directory is the listing, the entry cap applies, and one unsafe member name
 * anywhere refuses the whole archive, because a reviewer reading the preview
 * must see the archive the installer would see. The member's bytes are
 * counted as they come out of the decompressor, so a forged size field
 * cannot make a preview inflate more than the cap.
 */
import { SkillsError } from "../errors.js";
import { MAX_ARCHIVE_PREVIEW_BYTES } from "../limits.js";
import { openSkillArchive, type ArchiveEntry, type OpenArchiveOptions } from "./archive-reader.js";
import { isUnsafeMemberName, memberPathParts } from "./member-name.js";

/** Options of {@link readSkillArchiveMember}. */
export interface ReadMemberOptions extends OpenArchiveOptions {
  /** Most decompressed bytes returned. Default {@link MAX_ARCHIVE_PREVIEW_BYTES} (16 MiB, DeerFlow's preview cap). */
  readonly maxBytes?: number;
  /** Aborts the read. */
  readonly signal?: AbortSignal;
}

/** A member read by {@link readSkillArchiveMember}. */
export interface SkillArchiveMember {
  /** The member's name in the archive, `/`-separated (e.g. `my-skill/SKILL.md`). */
  readonly name: string;
  /** Its decompressed content. */
  readonly data: Buffer;
}

const TOO_LARGE_MESSAGE = "Skill archive member is too large to preview";

function tooLarge(name: string, maxBytes: number): SkillsError {
  return new SkillsError("ARCHIVE_TOO_LARGE", TOO_LARGE_MESSAGE, {
    details: { member: name, limit: "member", maxBytes },
  });
}

function unsafe(name: string): SkillsError {
  return new SkillsError("ARCHIVE_UNSAFE", `Archive contains unsafe member path: '${name}'`, {
    details: { member: name },
  });
}

function invalidRequest(memberPath: string): SkillsError {
  return new SkillsError("INVALID_PATH", `Invalid archive member path: '${memberPath}'`, {
    details: { member: memberPath },
  });
}

/**
 * The member a preview path names, DeerFlow's way: the exact name first,
 * then the first member ending in `/<path>` (so `SKILL.md` finds
 * `my-skill/SKILL.md` in an archive with a root folder). Directories and
 * symlinks never match.
 */
function findMember(entries: readonly ArchiveEntry[], wanted: string): ArchiveEntry | undefined {
  const files = entries.filter((e) => !e.isDirectory && !e.isSymlink);
  const normalized = files.map((e) => memberPathParts(e.name).join("/"));
  const exact = normalized.indexOf(wanted);
  if (exact >= 0) return files[exact];
  const suffix = normalized.findIndex((name) => name.endsWith(`/${wanted}`));
  return suffix >= 0 ? files[suffix] : undefined;
}

/**
 * Reads one regular file of a `.skill` (zip) archive into memory.
 *
 * @param file - path of the archive.
 * @param memberPath - the member wanted, `/`-separated, relative (`SKILL.md`,
 *   `scripts/run.py`); a name a root folder prefixes is found too.
 * @param options - size cap, entry cap, abort signal.
 * @returns the member's name and bytes.
 * @throws SkillsError `INVALID_PATH` (`memberPath` is empty or breaks the
 *   rules of {@link isUnsafeMemberName}), `ARCHIVE_UNSAFE` (any member name of
 *   the archive is absolute, drive-qualified, has a `..` part, `:` or NUL: the
 *   install refuses such an archive too), `FILE_NOT_FOUND` (`File '<p>' not
 *   found in skill archive`; also for directories and symlink members),
 *   `ARCHIVE_TOO_LARGE` (`Skill archive member is too large to preview`, with
 *   `details.limit === "member"`, when the declared or the decompressed size
 *   passes `maxBytes`; or more entries than the cap), `ARCHIVE_INVALID` (not a
 *   zip, or data that does not decompress).
 * @example
 * ```ts
 * const { data } = await readSkillArchiveMember("outputs/pdf-tools.skill", "SKILL.md");
 * console.log(data.toString("utf8"));
 * ```
 */
export async function readSkillArchiveMember(
  file: string,
  memberPath: string,
  options: ReadMemberOptions = {},
): Promise<SkillArchiveMember> {
  const maxBytes = options.maxBytes ?? MAX_ARCHIVE_PREVIEW_BYTES;
  const wanted = isUnsafeMemberName(memberPath) ? "" : memberPathParts(memberPath).join("/");
  if (wanted === "") throw invalidRequest(memberPath);

  const archive = await openSkillArchive(file, options);
  try {
    const bad = archive.entries.find((e) => isUnsafeMemberName(e.name));
    if (bad !== undefined) throw unsafe(bad.name);
    const entry = findMember(archive.entries, wanted);
    if (entry === undefined) {
      throw new SkillsError("FILE_NOT_FOUND", `File '${memberPath}' not found in skill archive`, {
        details: { member: memberPath },
      });
    }
    const name = memberPathParts(entry.name).join("/");
    // Honest size fields fail before anything is inflated; the loop below catches forged ones.
    if (entry.declaredSize > maxBytes) throw tooLarge(name, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    const stream = archive.openEntry(entry);
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        options.signal?.throwIfAborted();
        total += chunk.length;
        if (total > maxBytes) throw tooLarge(name, maxBytes);
        chunks.push(chunk);
      }
    } catch (err) {
      if (SkillsError.isInstance(err) || (err instanceof Error && err.name === "AbortError")) throw err;
      throw new SkillsError("ARCHIVE_INVALID", `Archive member could not be decompressed: '${entry.name}'`, {
        cause: err,
        details: { member: entry.name },
      });
    } finally {
      stream.destroy();
    }
    return { name, data: Buffer.concat(chunks, total) };
  } finally {
    archive.close();
  }
}
