/**
 * Artifact paths that reach into a `.skill` archive, DeerFlow's way:
 * `/mnt/user-data/outputs/x.skill/SKILL.md` is the member `SKILL.md` of the
 * archive `/mnt/user-data/outputs/x.skill`.
 */
import { USER_DATA_ROOT, type UserDataPath } from "./virtual-path.js";

/** An archive and the member asked for in it. */
export interface SkillArchivePath {
  /** The archive's own (checked) path. */
  readonly archive: UserDataPath;
  /** The member, `/`-separated, relative to the archive (`SKILL.md`, `scripts/run.py`). */
  readonly member: string;
}

/**
 * Splits at the first path segment ending in `.skill` that has segments
 * after it.
 *
 * @param target - a path from `parseUserDataPath` (so without `..` segments).
 * @returns the archive and member, or `undefined` for an ordinary path.
 * @example
 * ```ts
 * splitSkillArchivePath(parseUserDataPath("mnt/user-data/outputs/x.skill/SKILL.md"));
 * // { archive: <path of /mnt/user-data/outputs/x.skill>, member: "SKILL.md" }
 * ```
 */
export function splitSkillArchivePath(target: UserDataPath): SkillArchivePath | undefined {
  if (target.area === undefined) return undefined;
  const at = target.segments.findIndex((segment, i) => segment.endsWith(".skill") && i < target.segments.length - 1);
  if (at < 0) return undefined;
  const segments = target.segments.slice(0, at + 1);
  return {
    archive: {
      virtualPath: [USER_DATA_ROOT, target.area, ...segments].join("/"),
      area: target.area,
      segments,
      top: target.top,
    },
    member: target.segments.slice(at + 1).join("/"),
  };
}
