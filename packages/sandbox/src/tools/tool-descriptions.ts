/**
 * What the model reads about each sandbox tool. The wording follows DeerFlow's
 * docstrings where behaviour is the same; where ours differs (str_replace's
 * uniqueness rule, no read-before-write gate) it says what we do.
 */

/** Description of `bash`. */
export const BASH_DESCRIPTION = `Execute a bash command in the sandbox. The working directory is /mnt/user-data/workspace.

- Use \`python\` to run Python code.
- Prefer a thread-local virtual environment in \`/mnt/user-data/workspace/.venv\`.
- Use \`python -m pip\` (inside the virtual environment) to install Python packages.
- If a command is rejected because of a path, do not repeat it. For environment questions use command-only probes such as \`uname -a\`; otherwise use paths under /mnt/user-data.
- To start a long-lived process such as a web server, ALWAYS run it in the background with its output redirected, e.g. \`your-command > /mnt/user-data/workspace/server.log 2>&1 &\`, then check the log file or poll the port. A long-lived process run in the foreground blocks the turn until it is killed at the command timeout.`;

/** Description of `ls`. */
export const LS_DESCRIPTION = "List the contents of a directory up to 2 levels deep in tree format.";

/** Description of `glob`. */
export const GLOB_DESCRIPTION = "Find files or directories that match a glob pattern under a root directory.";

/** Description of `grep`. */
export const GREP_DESCRIPTION = "Search for matching lines inside a text file or files under a root directory.";

/** Description of `read_file`. */
export const READ_FILE_DESCRIPTION =
  "Read the contents of a text file. Use this to examine source code, configuration files, logs, or any text-based file.";

/**
 * Description of `write_file`, with the SIZE POLICY its size error points to.
 *
 * @param maxBytes - The configured single-call limit (≤0: none).
 * @returns The description.
 */
export function writeFileDescription(maxBytes: number): string {
  const base =
    "Write text content to a file. By default this overwrites the target file; set append=True to add content to the end without replacing existing content.";
  if (maxBytes <= 0) return base;
  const kb = Math.round(maxBytes / 1024);
  return `${base}

SIZE POLICY:
A single non-append write_file call must not exceed ${kb} KB (${maxBytes} bytes) of UTF-8 content. Oversized single-shot writes correlate with streaming timeouts because the tool-call JSON payload, which you must emit as one continuous stream, grows past the safe window. For larger documents, use ONE of these strategies (write_file rejects oversized payloads with an actionable error):

  1. INCREMENTAL EDIT (preferred for revisions): after the initial write, use \`str_replace\` to update sections. This keeps each tool call's payload small.
  2. APPEND-IN-CHUNKS (for new long-form content): split the document into sections, each well under ${kb} KB. The first call uses append=False to create the file; subsequent calls use append=True. The limit does NOT apply to append=True calls.`;
}

/** Description of `str_replace`. */
export const STR_REPLACE_DESCRIPTION = `Replace a substring in a file with another substring.
If \`replace_all\` is False (default), the substring to replace must appear **exactly once** in the file; include enough surrounding context to make it unique, or set \`replace_all\` to True to replace every occurrence.`;
