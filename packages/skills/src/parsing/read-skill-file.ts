import { open } from "node:fs/promises";
import { MAX_SKILL_FILE_BYTES } from "../limits.js";
import type { ValidationIssue } from "../model/frontmatter.js";

/** Text of a SKILL.md, or the issue that prevented reading it. */
export type SkillFileRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly issue: ValidationIssue };

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a SKILL.md as UTF-8. The size is checked in bytes on the open handle
 * before reading (no check-then-open race), and the read itself is capped, so
 * a file that grows meanwhile still cannot exceed the limit.
 */
export async function readSkillFile(file: string, maxBytes: number = MAX_SKILL_FILE_BYTES): Promise<SkillFileRead> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      return { ok: false, issue: { code: "file-missing", field: null, message: "SKILL.md not found" } };
    throw err;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile())
      return { ok: false, issue: { code: "file-missing", field: null, message: "SKILL.md not found" } };
    if (stat.size > maxBytes) return { ok: false, issue: tooLarge(stat.size, maxBytes) };
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return { ok: false, issue: tooLarge(length, maxBytes) };
    try {
      return { ok: true, text: decoder.decode(buffer.subarray(0, length)) };
    } catch {
      return { ok: false, issue: { code: "encoding-invalid", field: null, message: "SKILL.md must be valid UTF-8" } };
    }
  } finally {
    await handle.close();
  }
}

function tooLarge(size: number, max: number): ValidationIssue {
  return {
    code: "file-too-large",
    field: null,
    message: `SKILL.md is too large (${size} bytes). Maximum is ${max} bytes.`,
  };
}
