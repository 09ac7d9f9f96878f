/**
 * Archive preflight: the static rules that can be decided from a `.skill`
 * archive's central directory alone, before anything is extracted.
 */
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_TOTAL_BYTES } from "../../limits.js";
import type { Finding } from "../types.js";
import { makeFinding } from "./catalogue.js";
import { buildScanReport } from "./findings.js";
import { fileMetadataFindings, nameShapeFindings, normalizeMemberName } from "./rules-package.js";

/** One member of an archive as its central directory describes it. */
export interface ArchiveEntryInfo {
  /** The stored member name; directories end with `/`. */
  readonly name: string;
  readonly isSymlink: boolean;
  readonly uncompressedSize: number;
}

/**
 * Runs the name, kind and size rules over an archive listing: traversal,
 * absolute and ADS names; symlinks; more than {@link MAX_ARCHIVE_ENTRIES}
 * members (which aborts the preflight, like DeerFlow); oversized members and
 * total; hidden sensitive files; `.git`; and SKILL.md at two or more directory
 * levels (`root/sub/SKILL.md`; `root/SKILL.md` is the skill itself).
 *
 * Content rules (executable magic, nested archives) need the bytes and run on
 * the extracted tree through {@link StaticSkillScanner}.
 *
 * @param entries - the archive listing.
 * @returns findings, deduplicated and sorted.
 * @example
 * ```ts
 * const dir = await unzipper.Open.file(archive);
 * const findings = scanArchiveEntries(dir.files.map((f) => ({
 *   name: f.path,
 *   isSymlink: ((f.externalFileAttributes >>> 16) & 0o170000) === 0o120000,
 *   uncompressedSize: f.uncompressedSize,
 * })));
 * ```
 */
export function scanArchiveEntries(entries: readonly ArchiveEntryInfo[]): Finding[] {
  if (entries.length > MAX_ARCHIVE_ENTRIES) {
    return [makeFinding("package-too-many-members", { file: null, evidence: `${entries.length} members` })];
  }
  const findings: Finding[] = [];
  let total = 0;
  for (const entry of entries) {
    const file = normalizeMemberName(entry.name);
    findings.push(...nameShapeFindings(entry.name, file));
    if (entry.isSymlink) findings.push(makeFinding("package-symlink", { file, evidence: entry.name }));
    if (entry.name.endsWith("/") || entry.name.endsWith("\\")) continue;
    total += Math.max(entry.uncompressedSize, 0);
    findings.push(...fileMetadataFindings(file, entry.uncompressedSize, 2));
  }
  if (total > MAX_ARCHIVE_TOTAL_BYTES)
    findings.push(makeFinding("package-oversized-total", { file: null, evidence: `${total} bytes` }));
  return [...buildScanReport(findings).findings];
}
