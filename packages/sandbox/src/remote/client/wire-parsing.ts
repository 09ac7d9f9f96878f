/**
 * Checks and converts the `data` of the service's answers (snake_case) into
 * the `Sandbox` types (camelCase). A malformed answer is `UNAVAILABLE`: the
 * service is not one this client can talk to.
 */
import { SandboxError } from "../../errors.js";
import type { ExecuteResult, GrepMatch } from "../../sandbox.js";

function malformed(what: string): SandboxError {
  return new SandboxError("UNAVAILABLE", `Sandbox service sent a malformed answer to ${what}`);
}

/**
 * @param data - `data` of `POST /v1/shell/exec`.
 * @returns The execute result.
 */
export function parseExecuteResult(data: Record<string, unknown>): ExecuteResult {
  const { stdout, stderr, exit_code, signal, timed_out, truncated } = data;
  if (
    typeof stdout !== "string" ||
    typeof stderr !== "string" ||
    !(exit_code === null || typeof exit_code === "number") ||
    !(signal === null || typeof signal === "string") ||
    typeof timed_out !== "boolean" ||
    typeof truncated !== "boolean"
  ) {
    throw malformed("POST /v1/shell/exec");
  }
  return { stdout, stderr, exitCode: exit_code, signal, timedOut: timed_out, truncated };
}

/**
 * @param value - Supposedly an array of strings.
 * @param what - For the error message.
 * @returns The strings.
 */
export function parseStrings(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw malformed(what);
  return value as string[];
}

/**
 * @param data - `data` of `POST /v1/file/list`.
 * @returns Virtual paths as `listDir` returns them (directories end with `/`).
 */
export function parseListing(data: Record<string, unknown>): string[] {
  if (!Array.isArray(data.files)) throw malformed("POST /v1/file/list");
  return data.files.map((entry: unknown) => {
    const { path, is_directory } = (entry ?? {}) as { path?: unknown; is_directory?: unknown };
    if (typeof path !== "string" || typeof is_directory !== "boolean") throw malformed("POST /v1/file/list");
    return is_directory ? `${path}/` : path;
  });
}

/**
 * @param value - `matches` of `POST /v1/file/grep`.
 * @returns The grep matches.
 */
export function parseGrepMatches(value: unknown): GrepMatch[] {
  if (!Array.isArray(value)) throw malformed("POST /v1/file/grep");
  return value.map((entry: unknown) => {
    const { file, line_number, line } = (entry ?? {}) as { file?: unknown; line_number?: unknown; line?: unknown };
    if (typeof file !== "string" || typeof line_number !== "number" || typeof line !== "string")
      throw malformed("POST /v1/file/grep");
    return { path: file, line: line_number, text: line };
  });
}

/**
 * @param data - A search answer's `data`.
 * @returns Its `truncated` flag (false when absent, as the all-in-one service omits it).
 */
export function truncatedFlag(data: Record<string, unknown>): boolean {
  return data.truncated === true;
}
