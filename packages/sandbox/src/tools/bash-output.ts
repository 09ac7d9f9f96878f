/**
 * Turns an {@link ExecuteResult} into the text DeerFlow's `bash` tool returns,
 * and redacts injected secrets from it.
 */
import { constants } from "node:os";
import type { ExecuteResult } from "../sandbox.js";

/** What replaces a secret value in bash output. */
const SECRET_REDACTION = "[redacted]";

/**
 * Secret values shorter than this are not redacted: masking a 2-character
 * region code or a PIN would shred unrelated output (exit codes, sizes,
 * timestamps) while protecting little.
 */
const MIN_REDACTED_SECRET_CHARS = 8;

/**
 * Formats a timeout as DeerFlow does: whole numbers without decimals,
 * `1 second` singular, anything else plural (`1.5 seconds`, `600 seconds`).
 *
 * @param timeoutMs - The timeout in milliseconds.
 * @returns e.g. `"600 seconds"`.
 */
export function formatTimeoutDuration(timeoutMs: number): string {
  const seconds = timeoutMs / 1000;
  return `${String(seconds)} ${seconds === 1 ? "second" : "seconds"}`;
}

/**
 * The notice appended when a command timed out, with the hint to background
 * long-lived processes.
 *
 * @param timeoutMs - The timeout that fired.
 * @returns DeerFlow's exact notice.
 */
export function formatTimeoutNotice(timeoutMs: number): string {
  return (
    `Command timed out after ${formatTimeoutDuration(timeoutMs)} and was terminated. ` +
    "To run a long-lived process such as a web server, start it in the background and redirect its output, " +
    "e.g. `your-command > /mnt/user-data/workspace/server.log 2>&1 &`."
  );
}

/** Python reports a signal death as a negative return code (`-9` for SIGKILL); so do we. */
function exitStatus(result: ExecuteResult): string {
  if (result.exitCode !== null) return String(result.exitCode);
  if (result.signal !== null) {
    const number = (constants.signals as Record<string, number | undefined>)[result.signal];
    return number === undefined ? result.signal : String(-number);
  }
  return "unknown";
}

/**
 * Assembles the bash tool's text: stdout; stderr appended as
 * `"\nStd Error:\n{stderr}"` (or alone when stdout is empty); on timeout the
 * {@link formatTimeoutNotice} on its own line; otherwise a non-zero status as
 * `"\nExit Code: {n}"`; `"(no output)"` when all of that is empty.
 *
 * @param result - What the sandbox returned.
 * @param timeoutMs - The timeout that was requested (named in the notice).
 * @returns The tool text, before redaction and truncation.
 */
export function formatExecuteResult(result: ExecuteResult, timeoutMs: number): string {
  let output = result.stdout;
  if (result.stderr !== "") output += output !== "" ? `\nStd Error:\n${result.stderr}` : result.stderr;
  if (result.timedOut) {
    const notice = formatTimeoutNotice(timeoutMs);
    output += output !== "" ? `\n${notice}` : notice;
  } else if (result.exitCode !== 0) {
    output += `\nExit Code: ${exitStatus(result)}`;
  }
  return output !== "" ? output : "(no output)";
}

/**
 * Replaces every injected secret value (at least {@link MIN_REDACTED_SECRET_CHARS}
 * long) with `[redacted]`, longest first so a secret that contains another is
 * not revealed in part.
 *
 * @param output - Command output.
 * @param secrets - The values injected into the command's environment.
 * @returns The redacted output.
 */
export function redactSecrets(output: string, secrets: Readonly<Record<string, string>> | undefined): string {
  if (secrets === undefined || output === "") return output;
  const values = [...new Set(Object.values(secrets))]
    .filter((value) => value.length >= MIN_REDACTED_SECRET_CHARS)
    .sort((a, b) => b.length - a.length);
  let redacted = output;
  for (const value of values) redacted = redacted.split(value).join(SECRET_REDACTION);
  return redacted;
}
