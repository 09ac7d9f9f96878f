/**
 * The last step of every install: moving a vetted skill tree into the custom
 * skills root so that readers never see half a skill and two concurrent
 * installers of the same name cannot both win.
 *
 * 1. Copy the tree into a hidden staging folder `.installing-<name>-<random>`
 *    inside the custom root (same file system as the target; discovery skips
 *    dot folders, so it is never listed).
 * 2. Reserve `<root>/<name>` with an exclusive `mkdir` (mode 0700). If it
 *    exists, somebody else won: report "already exists" and touch nothing of
 *    theirs.
 * 3. Rename the staged children into the reserved folder, then make the tree
 *    sandbox-readable.
 * 4. On any failure remove what this call created; the staging folder is
 *    always removed.
 */
import { mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { SkillsError } from "../errors.js";
import { normalizeSkillName } from "../custom/skill-name.js";
import { silentLogger, type Logger } from "../logger.js";
import { makeSandboxReadable } from "../internal/sandbox-permissions.js";
import { copySkillTree, listSkillTree } from "./skill-tree.js";

/** Prefix of staging folders inside the custom root. */
const STAGING_PREFIX = ".installing-";

/** Options of {@link commitStagedSkill}. */
export interface CommitOptions {
  /** The custom skills root; created if missing. */
  readonly customRoot: string;
  /** The validated skill name; the target is `<customRoot>/<name>`. */
  readonly name: string;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
}

/**
 * Builds the error for a name that is already taken.
 *
 * @param name - the skill name.
 */
export function skillExistsError(name: string): SkillsError {
  return new SkillsError("SKILL_ALREADY_EXISTS", `Skill '${name}' already exists`, { details: { name } });
}

function errnoCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null ? (err as NodeJS.ErrnoException).code : undefined;
}

/**
 * Installs the vetted tree at `sourceDir` as `<customRoot>/<name>`. The source
 * is copied, never moved or modified.
 *
 * @param sourceDir - the skill root to install (already validated and scanned).
 * @param options - target root, name, logger, abort signal.
 * @returns the absolute path of the installed skill directory.
 * @throws SkillsError `SKILL_ALREADY_EXISTS` when the target exists, including
 *   when a concurrent install reserved it first; `INVALID_NAME` when `name`
 *   fails the storage-layer check.
 * @example
 * ```ts
 * const skillDir = await commitStagedSkill(extractedRoot, { customRoot, name: "my-skill" });
 * ```
 */
export async function commitStagedSkill(sourceDir: string, options: CommitOptions): Promise<string> {
  const { customRoot } = options;
  const logger = options.logger ?? silentLogger;
  // A name only reaches a host path through the storage-layer check.
  const name = normalizeSkillName(options.name);
  await mkdir(customRoot, { recursive: true });
  const target = path.join(customRoot, name);
  const staging = await mkdtemp(path.join(customRoot, `${STAGING_PREFIX}${name}-`));
  let reserved = false;
  try {
    await copySkillTree(
      await listSkillTree(sourceDir, { skipDotDirectories: false, enforceLimits: false }),
      staging,
      options.signal,
    );
    options.signal?.throwIfAborted();
    try {
      await mkdir(target, { mode: 0o700 });
    } catch (err) {
      if (errnoCode(err) === "EEXIST") throw skillExistsError(name);
      throw err;
    }
    reserved = true;
    for (const child of await readdir(staging)) await rename(path.join(staging, child), path.join(target, child));
    await makeSandboxReadable(target);
    return target;
  } catch (err) {
    if (reserved) {
      await rm(target, { recursive: true, force: true }).catch((cleanupError: unknown) => {
        logger.error({ skill: name, err: String(cleanupError) }, "Could not roll back a failed skill install");
      });
    }
    throw err;
  } finally {
    await rm(staging, { recursive: true, force: true }).catch((cleanupError: unknown) => {
      logger.warn({ skill: name, err: String(cleanupError) }, "Could not remove skill staging directory");
    });
  }
}
