/**
 * `max_facts` eviction (DeerFlow's default `confidence` policy): keep the
 * `maxFacts` facts with the highest confidence; on equal confidence the more
 * recently updated fact stays.
 */
import { byConfidence } from "../document.js";
import type { MemoryFact } from "../types.js";

/**
 * @param facts - the scope's facts
 * @param maxFacts - capacity (≥ 1)
 * @returns the facts to delete (empty when within capacity)
 */
export function factsToEvict(facts: readonly MemoryFact[], maxFacts: number): MemoryFact[] {
  if (facts.length <= maxFacts) return [];
  return [...facts].sort(byConfidence).slice(maxFacts);
}

/**
 * Whether a new fact would be evicted at once: the store is full and every
 * stored fact ranks above it (a tie with the weakest goes to the new fact, as newer).
 *
 * @param facts - the scope's facts
 * @param confidence - the new fact's confidence
 * @param maxFacts - capacity
 * @returns true when adding it would only evict it again
 */
export function wouldBeEvicted(facts: readonly MemoryFact[], confidence: number, maxFacts: number): boolean {
  if (facts.length < maxFacts) return false;
  const weakest = Math.min(...facts.map((f) => f.confidence));
  return confidence < weakest;
}
