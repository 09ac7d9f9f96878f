/**
 * The built-in deterministic scanner (DeerFlow's "SkillScan"), offline and
 * side-effect free.
 */
import { promises as fs } from "node:fs";
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_TOTAL_BYTES, SKILL_FILE_NAME } from "../../limits.js";
import { isCodeFile, isPythonSource, isShellSource } from "../file-kinds.js";
import type { Finding, ScanReport, SkillScanner } from "../types.js";
import { makeFinding } from "./catalogue.js";
import { readFilePrefix } from "./file-read.js";
import { buildScanReport } from "./findings.js";
import { executableKind } from "./magic.js";
import { declarationFindings } from "./rules-declaration.js";
import { networkFindings } from "./rules-network.js";
import { fileMetadataFindings, filePrefixFindings, nameShapeFindings } from "./rules-package.js";
import { pythonFindings } from "./rules-python.js";
import { secretFindings } from "./rules-secrets.js";
import { shellFindings } from "./rules-shell.js";
import { walkPackage } from "./walk.js";

/** Bytes probed for NUL to tell binary from text. */
const BINARY_PROBE_BYTES = 8 * 1024;
/** Bytes of one file the content rules read; the rest is not analysed (and reported). */
const MAX_CONTENT_SCAN_BYTES = 1024 * 1024;

const decoder = new TextDecoder("utf-8");

/** Content rules for one decoded text file. */
function contentFindings(relPath: string, text: string): Finding[] {
  const python = isPythonSource(relPath, text);
  const findings = [...secretFindings(relPath, text, python)];
  if ((relPath.split("/").at(-1) ?? "") === SKILL_FILE_NAME) findings.push(...declarationFindings(relPath, text));
  if (python) findings.push(...pythonFindings(relPath, text));
  if (isShellSource(relPath, text)) findings.push(...shellFindings(relPath, text));
  findings.push(...networkFindings(relPath, text));
  return findings;
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Deterministic static scanner with DeerFlow's SkillScan rule catalogue
 * (id `skillscan`). Only CRITICAL findings block.
 *
 * Bounds: at most {@link MAX_ARCHIVE_ENTRIES} entries are walked (more is a
 * CRITICAL `package-too-many-members` and the scan stops there); sizes come
 * from `lstat`, so a huge file is never read whole; each file's first
 * {@link BINARY_PROBE_BYTES} decide text vs binary and the content rules see at
 * most {@link MAX_CONTENT_SCAN_BYTES}. Symlinks are reported and never
 * followed; FIFOs and devices are skipped.
 *
 * @example
 * ```ts
 * const report = await new StaticSkillScanner().scanDirectory("/srv/skills/custom/pdf-tools");
 * if (report.blocked) throw new Error(formatFindings(report.findings.filter((f) => f.severity === "CRITICAL")));
 * ```
 */
export class StaticSkillScanner implements SkillScanner {
  /** Identifier recorded in logs and history. */
  readonly id = "skillscan";

  /**
   * Scans the package rooted at `dir`.
   *
   * @param dir - the package directory (containing SKILL.md).
   * @param options - `signal` aborts between files.
   * @returns the report: sorted, deduplicated findings.
   * @throws Error when `dir` is not a directory; the signal's reason when aborted.
   */
  async scanDirectory(dir: string, options: { signal?: AbortSignal } = {}): Promise<ScanReport> {
    const { signal } = options;
    signal?.throwIfAborted();
    // The caller chose the root, so a symlinked root is followed; nothing below it is.
    const rootStat = await fs.stat(dir).catch(() => null);
    if (rootStat === null || !rootStat.isDirectory()) throw new Error("skill package root is not a directory");

    const walk = await walkPackage(dir, MAX_ARCHIVE_ENTRIES, signal);
    if (walk.truncated) {
      return buildScanReport([
        makeFinding("package-too-many-members", { file: null, evidence: `more than ${MAX_ARCHIVE_ENTRIES} members` }),
      ]);
    }
    const findings: Finding[] = [];
    const errors: string[] = [];
    let total = 0;
    for (const entry of walk.entries) {
      findings.push(...nameShapeFindings(entry.relPath, entry.relPath));
      if (entry.kind === "symlink")
        findings.push(makeFinding("package-symlink", { file: entry.relPath, evidence: entry.relPath }));
      else if (entry.kind === "other") errors.push(`${entry.relPath}: not a regular file; skipped`);
      else if (entry.kind === "file") total += entry.size;
    }
    if (total > MAX_ARCHIVE_TOTAL_BYTES)
      findings.push(makeFinding("package-oversized-total", { file: null, evidence: `${total} bytes` }));

    for (const entry of walk.entries) {
      if (entry.kind !== "file") continue;
      signal?.throwIfAborted();
      findings.push(...fileMetadataFindings(entry.relPath, entry.size, 1));
      try {
        findings.push(...(await this.scanFile(entry.relPath, entry.absPath, entry.size, errors)));
      } catch (err) {
        errors.push(`${entry.relPath}: ${errorCode(err)}`);
      }
    }
    return buildScanReport(findings, errors);
  }

  private async scanFile(relPath: string, absPath: string, size: number, errors: string[]): Promise<Finding[]> {
    const bytes = await readFilePrefix(absPath, MAX_CONTENT_SCAN_BYTES);
    const findings = await filePrefixFindings(relPath, bytes.subarray(0, 8), absPath, size);
    // An executable's string table reads as secrets and URLs; its CRITICAL finding already blocks.
    if (executableKind(bytes) !== null) return findings;
    // Interpreters run code despite a stray NUL, so code files are analysed anyway (lossily).
    if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0) && !isCodeFile(relPath, bytes)) return findings;
    if (size > MAX_CONTENT_SCAN_BYTES)
      errors.push(`${relPath}: content analysed up to ${MAX_CONTENT_SCAN_BYTES} bytes only`);
    try {
      findings.push(...contentFindings(relPath, decoder.decode(bytes)));
    } catch (err) {
      errors.push(`${relPath}: analyzer failed: ${errorCode(err)}`);
    }
    return findings;
  }
}
