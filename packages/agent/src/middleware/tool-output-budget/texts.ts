/**
 * What the model reads instead of an oversized tool result. DeerFlow's exact
 * synopsis wording is not part of its conformance notes (§3 row 2 gives the
 * shape: a typed synopsis, a head/tail sample and a `read_file` path), so
 * these texts are ours.
 */

/** What a result looks like, for the synopsis. */
function describeOutput(text: string): string {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(text);
      return Array.isArray(parsed) ? `JSON array of ${parsed.length} items` : "JSON object";
    } catch {
      // Not whole JSON (e.g. JSON lines): plain text below.
    }
  }
  return "text";
}

const lineCount = (text: string): number => (text === "" ? 0 : text.split("\n").length);

/**
 * The result written to a file: a synopsis, a head and a tail, and where to read the rest.
 *
 * @param parts - the tool, the full text, the file path, the sample sizes
 * @returns the replacement content
 */
export function externalizedOutputText(parts: {
  tool: string;
  text: string;
  path: string;
  headChars: number;
  tailChars: number;
}): string {
  const { tool, text, path, headChars, tailChars } = parts;
  return [
    `[Tool output saved to a file] The output of \`${tool}\` was too large to show in full: ${text.length} characters, ${lineCount(text)} lines (${describeOutput(text)}).`,
    `The full output is in ${path}; read the parts you need with read_file (start_line / end_line) or search it with grep.`,
    "",
    `--- first ${headChars} characters ---`,
    text.slice(0, headChars),
    `--- last ${tailChars} characters ---`,
    text.slice(-tailChars),
  ].join("\n");
}

/**
 * The result cut when it could not be written to a file.
 *
 * @param parts - the full text and the sizes kept
 * @returns the head, a note of what was left out, the tail
 */
export function truncatedOutputText(parts: { text: string; headChars: number; tailChars: number }): string {
  const { text, headChars, tailChars } = parts;
  const omitted = text.length - headChars - tailChars;
  return `${text.slice(0, headChars)}\n\n[... ${omitted} characters omitted: the output was too large and could not be saved to a file ...]\n\n${text.slice(-tailChars)}`;
}
