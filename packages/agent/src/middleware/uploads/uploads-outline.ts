/**
 * What `<current_uploads>` shows of a file's content (DeerFlow §6.2: "an
 * optional document outline (`L<line>: <heading>`) or a preview of the first
 * lines"): the Markdown headings of a document with their line numbers, so the
 * model can `read_file` the section it needs, or the first lines of another
 * text file. Everything here is bounded: the lines scanned, the headings and
 * preview lines kept, and the characters of each.
 */

/** Lines of a document scanned for headings. */
export const OUTLINE_SCAN_LINES = 2000;
/** Headings listed per file; the rest are counted. */
export const OUTLINE_MAX_HEADINGS = 25;
/** Lines of a preview. */
export const PREVIEW_LINES = 5;
/** Characters kept of a heading or a preview line. */
export const OUTLINE_LINE_CHARS = 160;

/** One heading of a document's outline. */
export interface OutlineHeading {
  /** 1-based line number in the document. */
  readonly line: number;
  /** The heading line as written (`## Revenue`), trimmed and cut to {@link OUTLINE_LINE_CHARS}. */
  readonly text: string;
}

/** What is shown of a file's content: an outline, or a preview when it has no headings. */
export type UploadGlance =
  | {
      readonly kind: "outline";
      /** The document the line numbers refer to (the file itself or its Markdown companion). */
      readonly path: string;
      readonly headings: readonly OutlineHeading[];
      /** Headings found beyond {@link OUTLINE_MAX_HEADINGS}. */
      readonly more: number;
    }
  | { readonly kind: "preview"; readonly lines: readonly string[] };

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(\S.*?)[ \t]*#*[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function cut(text: string): string {
  return text.length <= OUTLINE_LINE_CHARS ? text : `${text.slice(0, OUTLINE_LINE_CHARS - 1)}…`;
}

/**
 * The ATX headings (`#` … `######`) of Markdown text, outside fenced code blocks.
 *
 * @param text - the document's first lines (at most {@link OUTLINE_SCAN_LINES} are read)
 * @returns the first {@link OUTLINE_MAX_HEADINGS} headings and how many more there are
 * @example
 * ```ts
 * markdownOutline("# Report\n\ntext\n## Revenue"); // { headings: [{ line: 1, text: "# Report" }, { line: 4, text: "## Revenue" }], more: 0 }
 * ```
 */
export function markdownOutline(text: string): { headings: OutlineHeading[]; more: number } {
  const headings: OutlineHeading[] = [];
  let more = 0;
  let fence: string | undefined;
  const lines = text.split("\n", OUTLINE_SCAN_LINES);
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    const opening = FENCE.exec(line)?.[1];
    if (opening !== undefined) {
      if (fence === undefined) fence = opening;
      else if (opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const match = ATX_HEADING.exec(line);
    if (match === null) return;
    if (headings.length < OUTLINE_MAX_HEADINGS) headings.push({ line: i + 1, text: cut(`${match[1]} ${match[2]}`) });
    else more += 1;
  });
  return { headings, more };
}

/**
 * The first non-empty-trailing lines of a text, each cut to {@link OUTLINE_LINE_CHARS}.
 *
 * @param text - the file's first lines
 * @returns at most {@link PREVIEW_LINES} lines (trailing blank lines dropped)
 */
export function previewLines(text: string): string[] {
  const lines = text.split("\n", PREVIEW_LINES).map((l) => cut(l.replace(/\r$/, "").replace(/\t/g, "  ")));
  while (lines.length > 0 && lines.at(-1)!.trim() === "") lines.pop();
  return lines;
}
