/**
 * Splits a SKILL.md into its YAML frontmatter and Markdown body.
 *
 * Deliberately more forgiving than DeerFlow's regex: a UTF-8 BOM, CRLF line
 * endings and a closing fence at end of file (no trailing newline) are all
 * accepted, because editors produce them and the Agent Skills format allows them.
 */

/** A SKILL.md split into parts. */
export interface FrontmatterSplit {
  /** The YAML text between the fences, with `\n` line endings. */
  readonly yaml: string;
  /** Everything after the closing fence. */
  readonly body: string;
  /** 1-based file line of the first YAML line (for diagnostics). */
  readonly yamlStartLine: number;
}

const FENCE = /^---[ \t]*$/;

/**
 * Splits `text` into frontmatter and body.
 *
 * @returns the parts, or `null` when the file does not start with a `---` fence
 *   followed later by a closing `---` line.
 */
export function splitFrontmatter(text: string): FrontmatterSplit | null {
  const normalized = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, "\n");
  const firstBreak = normalized.indexOf("\n");
  if (firstBreak < 0 || !FENCE.test(normalized.slice(0, firstBreak))) return null;
  let lineStart = firstBreak + 1;
  while (lineStart <= normalized.length) {
    let lineEnd = normalized.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = normalized.length;
    if (FENCE.test(normalized.slice(lineStart, lineEnd))) {
      return {
        yaml: normalized.slice(firstBreak + 1, Math.max(firstBreak + 1, lineStart - 1)),
        body: normalized.slice(Math.min(lineEnd + 1, normalized.length)),
        yamlStartLine: 2,
      };
    }
    if (lineEnd === normalized.length) break;
    lineStart = lineEnd + 1;
  }
  return null;
}
