/**
 * DeerFlow's rules for supporting files of a custom skill (`write_file` and
 * `remove_file` of `skill_manage`): a relative path with a filename, no
 * traversal, under one of the support folders, and still inside that folder
 * once symlinks are followed.
 */
import path from "node:path";
import { SkillsError } from "../errors.js";
import { SUPPORT_DIRECTORIES } from "../limits.js";
import { isPathInside } from "@deerflow/kernel";
import { resolveRealPath } from "./resolve-path.js";

/** A support folder name (`assets`, `references`, `scripts`, `templates`). */
export type SupportDirectory = (typeof SUPPORT_DIRECTORIES)[number];

/** Exact DeerFlow messages of the support-path rules. */
export const SUPPORT_PATH_MESSAGES = {
  filename: "Supporting file path must include a filename.",
  relative: "Supporting file path must be relative.",
  traversal: "Supporting file path must not contain parent-directory traversal.",
  directory: `Supporting files must live under one of: ${[...SUPPORT_DIRECTORIES].sort().join(", ")}.`,
  escape: "Supporting file path must stay within the selected support directory.",
  /** @param dir - the support folder named alone. @returns the message for a path with no file part. */
  bareDirectory: (dir: string): string => `Supporting file path must name a file inside '${dir}/'.`,
} as const;

/** A support path that passed every rule. */
export interface SupportPath {
  /** The path as given, normalised to `/`-joined parts (what history records). */
  readonly relativePath: string;
  /** The support folder it lives under. */
  readonly supportDirectory: SupportDirectory;
  /** Canonical host path of the target, symlinks followed. */
  readonly absolutePath: string;
}

function invalid(message: string, relativePath: unknown): SkillsError {
  return new SkillsError("INVALID_PATH", message, {
    details: { path: typeof relativePath === "string" ? relativePath : null },
  });
}

/**
 * Checks the lexical rules only (no file system access).
 *
 * @param relativePath - the path the caller asked for.
 * @returns the path parts.
 * @throws SkillsError `INVALID_PATH` with DeerFlow's message for the first rule broken.
 */
function checkSupportPathSyntax(relativePath: unknown): { parts: string[]; supportDirectory: SupportDirectory } {
  if (typeof relativePath !== "string" || relativePath === "" || relativePath.endsWith("/")) {
    throw invalid(SUPPORT_PATH_MESSAGES.filename, relativePath);
  }
  if (relativePath.startsWith("/")) throw invalid(SUPPORT_PATH_MESSAGES.relative, relativePath);
  if (relativePath.includes("\0")) throw invalid(SUPPORT_PATH_MESSAGES.filename, relativePath);
  const parts = relativePath.split("/");
  // Stricter than DeerFlow (whose PurePosixPath drops "." and empty parts): any
  // of "..", "." or "" is refused, so the recorded path is always canonical.
  if (parts.some((part) => part === ".." || part === "." || part === "")) {
    throw invalid(SUPPORT_PATH_MESSAGES.traversal, relativePath);
  }
  const top = parts[0] ?? "";
  if (!(SUPPORT_DIRECTORIES as readonly string[]).includes(top))
    throw invalid(SUPPORT_PATH_MESSAGES.directory, relativePath);
  // A bare "scripts" names the folder itself (DeerFlow's later wording for this case).
  if (parts.length < 2) throw invalid(SUPPORT_PATH_MESSAGES.bareDirectory(top), relativePath);
  return { parts, supportDirectory: top as SupportDirectory };
}

/**
 * Resolves a supporting file path of a custom skill, enforcing every rule.
 * The support folder itself must resolve to `<skill>/<folder>` (a folder that
 * is a symlink to elsewhere is refused), and the target, following symlinks
 * even when dangling, must stay below that folder.
 *
 * @param skillDir - the skill directory (must exist).
 * @param relativePath - the untrusted relative path, e.g. `scripts/run.py`.
 * @returns the checked {@link SupportPath}.
 * @throws SkillsError `INVALID_PATH` with DeerFlow's message for the rule broken.
 * @example
 * ```ts
 * await resolveSupportPath(dir, "references/api.md"); // ok
 * await resolveSupportPath(dir, "references/../../x"); // throws (traversal)
 * ```
 */
export async function resolveSupportPath(skillDir: string, relativePath: unknown): Promise<SupportPath> {
  const { parts, supportDirectory } = checkSupportPathSyntax(relativePath);
  const realSkillDir = await resolveRealPath(skillDir);
  const supportRoot = await resolveRealPath(path.join(realSkillDir, supportDirectory));
  if (supportRoot !== path.join(realSkillDir, supportDirectory))
    throw invalid(SUPPORT_PATH_MESSAGES.escape, relativePath);
  const target = await resolveRealPath(path.join(realSkillDir, ...parts));
  if (!isPathInside(target, supportRoot, { strict: true })) throw invalid(SUPPORT_PATH_MESSAGES.escape, relativePath);
  return { relativePath: parts.join("/"), supportDirectory, absolutePath: target };
}
