/**
 * DeerFlow's `MemoryResponse` on the wire: `{version, revision, lastUpdated,
 * user, history, facts}`, each fact's `source` flattened to a string (the
 * thread id, else the source type) and `expected_valid_days` in snake_case.
 * An imported document in that shape is read back by `fromWireDocument`.
 */
import type { MemoryDocument, MemoryFact } from "@deerflow/memory";

/** A fact on the wire. */
type WireFact = Omit<MemoryFact, "source" | "expectedValidDays"> & {
  readonly source: string;
  readonly expected_valid_days?: number;
};

/** @returns the fact as DeerFlow's routes show it */
function toWireFact(fact: MemoryFact): WireFact {
  const { source, expectedValidDays, ...rest } = fact;
  return {
    ...rest,
    source: source.threadId ?? source.type,
    ...(expectedValidDays === undefined ? {} : { expected_valid_days: expectedValidDays }),
  };
}

/** @returns the document as DeerFlow's `MemoryResponse` */
export function toWireDocument(doc: MemoryDocument): Record<string, unknown> {
  return {
    version: doc.version,
    revision: doc.revision,
    lastUpdated: doc.lastUpdated,
    user: doc.user,
    history: doc.history,
    facts: doc.facts.map(toWireFact),
  };
}

const SOURCE_TYPES = new Set(["conversation", "manual", "consolidation", "import", "unknown"]);

/**
 * @param body - an imported `MemoryResponse` (validated by the route's schema)
 * @returns the document for `importMemory` (source strings become `{type, threadId?}`)
 */
export function fromWireDocument(body: Record<string, unknown>): Record<string, unknown> {
  const facts = Array.isArray(body["facts"]) ? (body["facts"] as Record<string, unknown>[]) : [];
  return {
    ...body,
    facts: facts.map((f) => {
      const { source, expected_valid_days: days, ...rest } = f;
      const s = typeof source === "string" ? source : "import";
      return {
        ...rest,
        source: SOURCE_TYPES.has(s) ? { type: s } : { type: "conversation", threadId: s },
        ...(typeof days === "number" ? { expectedValidDays: days } : {}),
      };
    }),
  };
}
