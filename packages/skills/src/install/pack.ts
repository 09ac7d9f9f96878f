/**
 * Packing a skill folder into a `.skill` archive that {@link installSkillArchive}
 * accepts. The output is reproducible: entries are sorted, timestamps are
 * fixed and no extended timestamp field is written, so the same folder gives
 * the same bytes on any machine and in any time zone.
 */
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yazl from "yazl";
import { SkillsError } from "../errors.js";
import { validateSkillDirectory } from "../parsing/validate.js";
import { listSkillTree } from "./skill-tree.js";

/** What {@link packSkillDirectory} wrote. */
export interface PackResult {
  /** The frontmatter name (also the archive's top-level folder). */
  readonly name: string;
  /** Absolute path of the written archive. */
  readonly file: string;
  /** Number of file members. */
  readonly files: number;
}

/**
 * Local-time components, so the DOS date/time fields (which are local time)
 * come out as 1980-01-01 00:00 whatever the time zone.
 */
const FIXED_MTIME = new Date(1980, 0, 1, 0, 0, 0);

/**
 * Writes `<name>.skill` for the skill folder `dir`.
 *
 * The folder is strictly validated first. The archive holds one top-level
 * folder named after the frontmatter `name`, with every file below it; dot
 * folders (`.git`, `.venv`) are left out, dot files are kept, a symlink inside
 * the folder is stored as the file it points to, and one leading outside the
 * folder is refused. The owner execute bit is kept (mode 0755 vs 0644). The
 * file is written to a temp name in the output folder and renamed into place.
 *
 * @param dir - the skill folder (containing SKILL.md).
 * @param outFile - where to write; default `<parent of dir>/<name>.skill`.
 * @returns the skill name, archive path and member count.
 * @throws SkillsError `SKILL_INVALID` "Invalid skill: <message>", `INVALID_PATH`
 *   (escaping or broken symlink, special file), `SKILL_TOO_LARGE` (over the
 *   archive caps).
 * @example
 * ```ts
 * const { file } = await packSkillDirectory("skills/custom/pdf-tools", "dist/pdf-tools.skill");
 * ```
 */
export async function packSkillDirectory(dir: string, outFile?: string): Promise<PackResult> {
  const validation = await validateSkillDirectory(dir, { requireDirectoryNameMatch: false });
  if (!validation.ok || validation.name === undefined) {
    const message = validation.errors[0]?.message ?? "SKILL.md not found";
    throw new SkillsError("SKILL_INVALID", `Invalid skill: ${message}`, { details: { errors: validation.errors } });
  }
  const name = validation.name;
  const tree = await listSkillTree(dir, { skipDotDirectories: true });
  const target = path.resolve(outFile ?? path.join(path.dirname(path.resolve(dir)), `${name}.skill`));

  const zip = new yazl.ZipFile();
  const common = { mtime: FIXED_MTIME, forceDosTimestamp: true };
  const nonEmpty = new Set<string>();
  for (const file of tree.files) {
    for (let at = file.rel.lastIndexOf("/"); at > 0; at = file.rel.lastIndexOf("/", at - 1))
      nonEmpty.add(file.rel.slice(0, at));
  }
  for (const d of tree.directories) {
    for (let at = d.lastIndexOf("/"); at > 0; at = d.lastIndexOf("/", at - 1)) nonEmpty.add(d.slice(0, at));
  }
  // Files and empty directories, merged in one sorted order.
  const members = [
    ...tree.files.map((f) => ({ rel: f.rel, file: f })),
    ...tree.directories.filter((d) => !nonEmpty.has(d)).map((d) => ({ rel: `${d}/`, file: undefined })),
  ].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  for (const member of members) {
    const metadataPath = `${name}/${member.rel}`;
    const file = member.file;
    if (file === undefined) {
      zip.addEmptyDirectory(metadataPath, { ...common, mode: 0o40755 });
      continue;
    }
    const mode = 0o100000 | ((file.mode & 0o100) !== 0 ? 0o755 : 0o644);
    zip.addReadStreamLazy(metadataPath, { ...common, mode, size: file.size }, (cb) => {
      cb(null, file.size === 0 ? Readable.from([]) : createReadStream(file.source, { start: 0, end: file.size - 1 }));
    });
  }
  zip.end();

  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await pipeline(zip.outputStream, createWriteStream(temp, { flags: "wx", mode: 0o644 }));
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return { name, file: target, files: tree.files.length };
}
