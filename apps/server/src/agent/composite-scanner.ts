/**
 * Runs several skill scanners as one (`skills.scanners` may list the built-in
 * static scanner and plugins): findings are concatenated, the package is
 * blocked when any scanner blocks.
 */
import type { ScanReport, SkillScanner } from "@deerflow/skills";

/**
 * Combines scanners.
 *
 * @param scanners - at least one scanner
 * @returns the single scanner, or one running all of them in order
 */
export function combineScanners(scanners: readonly SkillScanner[]): SkillScanner {
  if (scanners.length === 1 && scanners[0] !== undefined) return scanners[0];
  return {
    id: scanners.map((s) => s.id).join("+"),
    async scanDirectory(dir: string, options?: { signal?: AbortSignal }): Promise<ScanReport> {
      const reports: ScanReport[] = [];
      for (const s of scanners) reports.push(await s.scanDirectory(dir, options));
      return {
        findings: reports.flatMap((r) => r.findings),
        blocked: reports.some((r) => r.blocked),
        scannerErrors: reports.flatMap((r) => r.scannerErrors),
      };
    },
  };
}

/** True for objects implementing `SkillScanner`. */
export function isSkillScanner(value: unknown): value is SkillScanner {
  const v = value as Record<string, unknown> | null;
  return typeof v === "object" && v !== null && typeof v["id"] === "string" && typeof v["scanDirectory"] === "function";
}
