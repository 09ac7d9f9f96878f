/**
 * Staleness (DeerFlow §4.4): a fact is stale once its expected validity
 * (`expectedValidDays`, else `staleness_age_days`) has passed since it was
 * last confirmed (or created). Protected categories are never stale. The
 * review rides in the extraction call only when enough facts are stale.
 */
import type { MemorySettings } from "../memory-settings.js";
import type { MemoryFact } from "../types.js";

const DAY_MS = 86_400_000;

/**
 * @param facts - the scope's facts
 * @param settings - staleness settings
 * @param now - current time
 * @returns the stale facts, or none when fewer than `staleness_min_candidates` (or the review is off)
 */
export function staleCandidates(facts: readonly MemoryFact[], settings: MemorySettings, now: Date): MemoryFact[] {
  if (!settings.stalenessReviewEnabled) return [];
  const stale = facts.filter((f) => {
    if (settings.stalenessProtectedCategories.includes(f.category)) return false;
    const since = Date.parse(f.lastConfirmedAt ?? f.createdAt);
    if (Number.isNaN(since)) return false;
    return now.getTime() - since > (f.expectedValidDays ?? settings.stalenessAgeDays) * DAY_MS;
  });
  return stale.length >= settings.stalenessMinCandidates ? stale : [];
}

/** Longest `expectedValidDays` a fact may claim: `staleness_age_days × staleness_max_lifetime_multiplier`. */
export function maxValidDays(settings: MemorySettings): number {
  return Math.floor(settings.stalenessAgeDays * settings.stalenessMaxLifetimeMultiplier);
}

/** Whole days since an ISO time. */
export function daysSince(iso: string, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - Date.parse(iso)) / DAY_MS));
}
