import { createHash } from "node:crypto";
import type { Skill } from "../model/skill.js";

const digests = new WeakMap<readonly Skill[], string>();

/**
 * SHA-256 over what a rendered skill section depends on: each skill's name,
 * description, category, relativePath and enabled state, in order. Fields are
 * length-prefixed, so no choice of values can make two lists collide by
 * concatenation.
 *
 * A frozen array of frozen skills (what `SkillCatalog` returns) cannot change,
 * so its digest is memoised by identity: rendering an unchanged catalogue
 * again costs no hashing.
 *
 * @param skills - The skills, in the order given.
 * @returns A hex digest.
 */
function skillListDigest(skills: readonly Skill[]): string {
  // Only verified-frozen lists are ever stored, so a hit needs no re-check.
  const known = digests.get(skills);
  if (known !== undefined) return known;
  const cacheable = Object.isFrozen(skills) && skills.every((s) => Object.isFrozen(s));
  // One flat string hashes about twice as fast as many small updates.
  let text = "";
  for (const s of skills) {
    text += `${s.name.length}:${s.name}${s.description.length}:${s.description}${s.category.length}:${s.category}`;
    text += `${s.relativePath.length}:${s.relativePath}${s.enabled ? "1" : "0"}`;
  }
  const digest = createHash("sha256").update(text).digest("hex");
  if (cacheable) digests.set(skills, digest);
  return digest;
}

/**
 * The cache key of one rendered section: the skill digest combined with the
 * rendering options (serialised with sorted keys by the caller).
 *
 * @param skills - The skills to render.
 * @param optionsKey - A stable serialisation of every option that changes the text.
 * @returns A hex digest.
 */
export function sectionSignature(skills: readonly Skill[], optionsKey: string): string {
  return createHash("sha256").update(skillListDigest(skills)).update("\u0000").update(optionsKey).digest("hex");
}
