/**
 * Result limits and output formats of `glob` and `grep`, as DeerFlow's.
 */
import { DEFAULT_GLOB_RESULTS, DEFAULT_GREP_RESULTS, MAX_GLOB_RESULTS, MAX_GREP_RESULTS } from "../limits.js";
import type { GrepMatch } from "../sandbox.js";

function clamp(value: number, fallback: number, upper: number): number {
  if (!Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(Math.floor(value), upper);
}

/**
 * The number of results to ask for: the smaller of the model's request and the
 * operator's cap, each clamped (≤0 → default, at most the hard cap).
 *
 * @param requested - The model's `max_results`.
 * @param configured - The operator's cap.
 * @param kind - `glob` (default 200, cap 1000) or `grep` (default 100, cap 500).
 * @returns The effective limit.
 */
export function effectiveMaxResults(requested: number, configured: number, kind: "glob" | "grep"): number {
  const [fallback, upper] =
    kind === "glob" ? [DEFAULT_GLOB_RESULTS, MAX_GLOB_RESULTS] : [DEFAULT_GREP_RESULTS, MAX_GREP_RESULTS];
  return Math.min(clamp(requested, fallback, upper), clamp(configured, fallback, upper));
}

/**
 * `Found {n} paths under {root}` (+ ` (showing first {n})`), numbered lines,
 * then `Results truncated. Narrow the path or pattern to see fewer matches.`;
 * `No files matched under {root}` when empty.
 *
 * @param root - The root as the model gave it.
 * @param matches - Virtual paths.
 * @param truncated - Whether more existed.
 * @returns The tool text.
 */
export function formatGlobResults(root: string, matches: readonly string[], truncated: boolean): string {
  if (matches.length === 0) return `No files matched under ${root}`;
  const header = `Found ${matches.length} paths under ${root}${truncated ? ` (showing first ${matches.length})` : ""}`;
  const lines = [header, ...matches.map((path, i) => `${i + 1}. ${path}`)];
  if (truncated) lines.push("Results truncated. Narrow the path or pattern to see fewer matches.");
  return lines.join("\n");
}

/**
 * `Found {n} matches under {root}` (+ ` (showing first {n})`), `{path}:{line}: {text}`
 * lines, then `Results truncated. Narrow the path or add a glob filter.`;
 * `No matches found under {root}` when empty.
 *
 * @param root - The root as the model gave it.
 * @param matches - The hits.
 * @param truncated - Whether more existed.
 * @returns The tool text.
 */
export function formatGrepResults(root: string, matches: readonly GrepMatch[], truncated: boolean): string {
  if (matches.length === 0) return `No matches found under ${root}`;
  const header = `Found ${matches.length} matches under ${root}${truncated ? ` (showing first ${matches.length})` : ""}`;
  const lines = [header, ...matches.map((m) => `${m.path}:${m.line}: ${m.text}`)];
  if (truncated) lines.push("Results truncated. Narrow the path or add a glob filter.");
  return lines.join("\n");
}
