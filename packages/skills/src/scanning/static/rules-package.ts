/**
 * Package-level rules: what a member's *name*, *kind* and *size* say about a
 * package, independent of its content. Shared by the directory scanner and the
 * archive preflight ({@link scanArchiveEntries}).
 */
import path from "node:path";
import { MAX_ARCHIVE_FILE_BYTES, SKILL_FILE_NAME } from "../../limits.js";
import type { Finding } from "../types.js";
import { makeFinding } from "./catalogue.js";
import { executableKind, hasArchiveSuffix, looksLikeArchive, looksLikeZip } from "./magic.js";
import { nestedZipContainsExecutable } from "./nested-zip.js";

const HIDDEN_SENSITIVE_NAMES = new Set([".env", ".npmrc", ".pypirc", ".netrc"]);
// `.env.example` and friends are documentation of variables, not values.
const ENV_TEMPLATE_SUFFIXES = new Set(["example", "sample", "template", "dist"]);

/**
 * Normalises an archive member name: `\` becomes `/`, dot segments collapse and
 * a leading `./` is dropped.
 *
 * @param name - the raw member name.
 * @returns the POSIX-normalised name (empty for an empty name).
 */
export function normalizeMemberName(name: string): string {
  if (name === "") return "";
  const normalized = path.posix.normalize(name.replace(/\\/g, "/"));
  return normalized.startsWith("./") ? normalized.slice(2) : normalized;
}

/** True for `/x`, `\x`, `C:\x`, `C:/x` and UNC names. */
function isAbsoluteName(name: string): boolean {
  const slashed = name.replace(/\\/g, "/");
  return slashed.startsWith("/") || /^[A-Za-z]:/.test(name);
}

/**
 * Name-shape rules, first match wins like DeerFlow: absolute, else traversal
 * (`..` segment), else an NTFS alternate-data-stream colon.
 *
 * @param rawName - the name as stored (archive member or relative path).
 * @param file - the normalised name used as the finding's file.
 * @returns zero or one finding.
 */
export function nameShapeFindings(rawName: string, file: string): Finding[] {
  if (rawName === "") return [];
  if (isAbsoluteName(rawName)) return [makeFinding("package-absolute-path", { file, evidence: rawName })];
  if (rawName.replace(/\\/g, "/").split("/").includes(".."))
    return [makeFinding("package-path-traversal", { file, evidence: rawName })];
  if (rawName.includes(":")) return [makeFinding("package-ads-stream-name", { file, evidence: rawName })];
  return [];
}

/**
 * True for credential and package-manager config files: `.env` (and `.env.*`
 * other than templates), `.npmrc`, `.pypirc`, `.netrc`, any `credentials`
 * file, `.aws/…/credentials` and `.git/…/config`.
 *
 * @param relPath - normalised POSIX path.
 * @returns whether the file is a hidden sensitive file.
 */
function isHiddenSensitivePath(relPath: string): boolean {
  const parts = relPath.split("/").filter((p) => p !== "");
  const base = parts.at(-1);
  if (base === undefined) return false;
  if (parts.includes(".git") && base === "config") return true;
  if (base === "credentials") return true; // covers .aws/**/credentials
  if (HIDDEN_SENSITIVE_NAMES.has(base)) return true;
  if (base.startsWith(".env.")) return !ENV_TEMPLATE_SUFFIXES.has(base.slice(5).toLowerCase());
  return false;
}

/**
 * True when a nested SKILL.md sits under `evals/fixtures/`, where evaluation
 * suites keep sample skills. `rootPrefixed` also accepts one leading archive
 * folder (`root/evals/fixtures/…`).
 */
function isEvalFixture(parts: readonly string[], rootPrefixed: boolean): boolean {
  const at = (i: number): boolean => parts[i] === "evals" && parts[i + 1] === "fixtures" && parts.length > i + 2;
  return at(0) || (rootPrefixed && at(1));
}

/**
 * True when a path is a SKILL.md below the package root (eval fixtures excepted).
 *
 * @param relPath - normalised POSIX path.
 * @param minDepth - how many directories must precede it: 1 for a directory
 *   scan, 2 for archive names (whose first folder may be the skill root).
 * @returns whether it is a forbidden nested SKILL.md.
 */
function isNestedSkillMd(relPath: string, minDepth: 1 | 2): boolean {
  const parts = relPath.split("/").filter((p) => p !== "");
  if (parts.at(-1) !== SKILL_FILE_NAME || parts.length - 1 < minDepth) return false;
  return !isEvalFixture(parts, minDepth === 2);
}

/**
 * Rules that depend only on a regular file's name and size: nested SKILL.md,
 * oversized file, hidden sensitive file, `.git` directory.
 *
 * @param relPath - normalised POSIX path.
 * @param size - size in bytes.
 * @param nestedDepth - see {@link isNestedSkillMd}.
 * @returns the findings.
 */
export function fileMetadataFindings(relPath: string, size: number, nestedDepth: 1 | 2): Finding[] {
  const findings: Finding[] = [];
  const base = relPath.split("/").at(-1) ?? relPath;
  if (isNestedSkillMd(relPath, nestedDepth))
    findings.push(makeFinding("package-nested-skill-md", { file: relPath, evidence: relPath }));
  if (size > MAX_ARCHIVE_FILE_BYTES)
    findings.push(makeFinding("package-oversized-file", { file: relPath, evidence: `${size} bytes` }));
  if (isHiddenSensitivePath(relPath))
    findings.push(makeFinding("package-hidden-sensitive-file", { file: relPath, evidence: base }));
  if (relPath.split("/").includes(".git"))
    findings.push(makeFinding("package-git-directory", { file: relPath, evidence: ".git" }));
  return findings;
}

/**
 * Rules that depend on a regular file's first bytes: executable binary, and a
 * nested archive (by suffix or magic), escalated to CRITICAL when a nested zip
 * holds an executable member.
 *
 * @param relPath - normalised POSIX path.
 * @param prefix - the file's first bytes (at least 8 when the file has them).
 * @param absPath - where to open the file for the nested-zip peek.
 * @param size - file size; nested zips above the per-file limit are not opened.
 * @returns the findings.
 */
export async function filePrefixFindings(
  relPath: string,
  prefix: Uint8Array,
  absPath: string,
  size: number,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const kind = executableKind(prefix);
  if (kind !== null) findings.push(makeFinding("package-executable-binary", { file: relPath, evidence: kind }));
  if (hasArchiveSuffix(relPath) || looksLikeArchive(prefix)) {
    const name = relPath.split("/").at(-1) ?? relPath;
    const smuggles =
      looksLikeZip(prefix) && size <= MAX_ARCHIVE_FILE_BYTES && (await nestedZipContainsExecutable(absPath));
    findings.push(
      smuggles
        ? makeFinding("package-nested-archive", {
            file: relPath,
            evidence: `${name}: contains an executable binary member`,
            severity: "CRITICAL",
          })
        : makeFinding("package-nested-archive", { file: relPath, evidence: name }),
    );
  }
  return findings;
}
