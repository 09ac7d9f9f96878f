/** Memory documents and facts for unit tests. */
import { emptySummaries } from "../../src/document.js";
import type { MemoryDocument, MemoryFact } from "../../src/index.js";

let n = 0;

/** A stored fact with defaults. */
export function fact(over: Partial<MemoryFact> = {}): MemoryFact {
  n += 1;
  return {
    id: `fact_${String(n).padStart(32, "0")}`,
    content: `fact ${n}`,
    category: "context",
    confidence: 0.8,
    createdAt: "2026-11-01T00:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
    revision: 1,
    source: { type: "manual" },
    ...over,
  };
}

/** A document holding these facts. */
export function doc(facts: MemoryFact[] = [], over: Partial<MemoryDocument> = {}): MemoryDocument {
  return { version: "1.0", revision: 1, lastUpdated: "", ...emptySummaries(), facts, ...over };
}
