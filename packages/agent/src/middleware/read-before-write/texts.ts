/** Texts and state keys of the read-before-write gate (DeerFlow's, verbatim). */

/** `additional_kwargs` key of the mark a `read_file` result carries: `{ path, hash }`. */
export const READ_MARK_KEY = "deerflow_read_mark";
/** `additional_kwargs` key of the mark a successful write carries: `{ path }` (it voids earlier reads). */
export const WRITE_MARK_KEY = "deerflow_write_mark";

/**
 * DeerFlow's text for a write blocked by the gate.
 *
 * @param toolName - `write_file` or `str_replace`
 * @param path - the path as the model wrote it
 * @returns the error result the model reads
 */
export function readBeforeWriteBlockedText(toolName: string, path: string): string {
  return (
    `Error: ${toolName} blocked — ${path} already exists and you have not read its current version. ` +
    "Any write invalidates earlier reads, so re-read before every modification. " +
    "Call read_file on it (a ranged read of the relevant section is enough, e.g. the last ~30 lines " +
    "before an append), check what is already there, then retry."
  );
}
