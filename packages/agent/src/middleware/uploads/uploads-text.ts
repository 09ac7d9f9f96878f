/**
 * The `<current_uploads>` block (DeerFlow's `UploadsMiddleware._create_files_message`,
 * §6.2): the exact lines the model reads about the files of the current message.
 * User-chosen names are neutralised (framework tags escaped) as DeerFlow does, so a
 * crafted file name cannot open a trusted tag inside the block.
 */
import path from "node:path";
import { neutralizeUntrustedTags } from "../sanitization/neutralize.js";
import type { UploadGlance } from "./uploads-outline.js";

/** Where uploads are mounted in the sandbox. */
export const UPLOADS_VIRTUAL_DIR = "/mnt/user-data/uploads";

/** Files listed per block (DeerFlow's `max_files_per_context_section`). */
export const DEFAULT_MAX_ANNOUNCED_FILES = 10;

/** A file announced to the model. */
export interface AnnouncedUpload {
  /** Base name in the uploads folder. */
  readonly filename: string;
  /** Size in bytes. */
  readonly size: number;
  /** Virtual path of its Markdown companion (document text extraction), when there is one. */
  readonly markdownVirtualPath?: string;
  /** Its outline or first lines, when they could be read (see `ThreadUploadsListing.describe`). */
  readonly glance?: UploadGlance;
}

/**
 * Formats a size as DeerFlow does: KB with one decimal below 1024 KB, else MB.
 *
 * @param bytes - the size
 * @returns e.g. `"1.5 KB"`, `"2.0 MB"`
 */
export function formatUploadSize(bytes: number): string {
  const kb = bytes / 1024;
  return kb < 1024 ? `${kb.toFixed(1)} KB` : `${(kb / 1024).toFixed(1)} MB`;
}

function extensionLabel(filename: string): string {
  return path.posix.extname(filename).toLowerCase() || "(no extension)";
}

/** `2 .csv, 1 .pdf`: the omitted files counted per extension, sorted by extension. */
function omittedTypes(files: readonly AnnouncedUpload[]): string {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(extensionLabel(f.filename), (counts.get(extensionLabel(f.filename)) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([ext, n]) => `${n} ${ext}`)
    .join(", ");
}

/** The outline (`L<line>: <heading>`) or preview lines; file content is untrusted, so its tags are neutralised. */
function glanceLines(glance: UploadGlance | undefined): string[] {
  if (glance === undefined) return [];
  if (glance.kind === "preview") {
    return [`  Preview (first lines):`, ...glance.lines.map((l) => `    ${neutralizeUntrustedTags(l)}`)];
  }
  const lines = [
    `  Outline of ${neutralizeUntrustedTags(glance.path)} (line numbers for \`read_file\` start_line/end_line):`,
    ...glance.headings.map((h) => `    L${h.line}: ${neutralizeUntrustedTags(h.text)}`),
  ];
  if (glance.more > 0) {
    lines.push(
      `    ... ${glance.more} more heading(s): \`grep(pattern='^#', path='${neutralizeUntrustedTags(glance.path)}')\` lists them.`,
    );
  }
  return lines;
}

function fileLines(file: AnnouncedUpload): string[] {
  const name = neutralizeUntrustedTags(file.filename);
  const lines = [`- ${name} (${formatUploadSize(file.size)})`, `  Path: ${UPLOADS_VIRTUAL_DIR}/${name}`];
  if (file.markdownVirtualPath !== undefined)
    lines.push(`  Generated Markdown: ${neutralizeUntrustedTags(file.markdownVirtualPath)}`);
  lines.push(...glanceLines(file.glance));
  lines.push(
    file.markdownVirtualPath !== undefined
      ? "  Use `grep` on the Generated Markdown path to search for keywords."
      : `  Use \`grep\` to search for keywords (e.g. \`grep(pattern='keyword', path='${UPLOADS_VIRTUAL_DIR}/')\`).`,
  );
  lines.push("");
  return lines;
}

/**
 * The `<current_uploads>` block for the files of one message.
 *
 * @param files - the files listed (at most the cap, in upload order)
 * @param omitted - the files of the message over the cap (summarised with glob/grep hints)
 * @returns the block, without a trailing newline
 */
export function currentUploadsBlock(
  files: readonly AnnouncedUpload[],
  omitted: readonly AnnouncedUpload[] = [],
): string {
  const lines = ["<current_uploads>", "The following files were uploaded in this message:", ""];
  if (files.length === 0) lines.push("(empty)", "");
  for (const file of files) lines.push(...fileLines(file));
  if (files.length > 0 && omitted.length > 0) {
    lines.push(
      `... (${omitted.length} more file(s) from this message omitted from this context.)`,
      `  Omitted file types: ${neutralizeUntrustedTags(omittedTypes(omitted))}`,
      `  Use \`glob(pattern='**/*', path='${UPLOADS_VIRTUAL_DIR}/')\` to list all uploads.`,
      `  Use \`grep(pattern='keyword', path='${UPLOADS_VIRTUAL_DIR}/')\` to search across uploads.`,
      "",
    );
  }
  lines.push(
    "To work with these files:",
    "- Read from the file first — use the outline line numbers and `read_file` to locate relevant sections.",
    "- Use `grep` to search for keywords when you are not sure which section to look at",
    `  (e.g. \`grep(pattern='revenue', path='${UPLOADS_VIRTUAL_DIR}/')\`).`,
    "- Use `glob` to find files by name pattern",
    `  (e.g. \`glob(pattern='**/*.md', path='${UPLOADS_VIRTUAL_DIR}/')\`).`,
    "- Only fall back to web search if the file content is clearly insufficient to answer the question.",
    "</current_uploads>",
  );
  return lines.join("\n");
}
