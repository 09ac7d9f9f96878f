/**
 * `MemoryBackend`: where a user's memory lives. The built-in implementation is
 * {@link StoreMemoryBackend} (any LangGraph `BaseStore`); `HttpMemoryBackend`
 * is the documented plugin example for a remote, mem0-style service. Every
 * implementation passes `memoryBackendConformance` from `@deerflow/memory/testing`.
 *
 * Scoping is the backend's job: summaries are per user, facts per user and
 * agent, and nothing one scope does is visible from another.
 */
import type { FactPatch, MemoryDocument, MemoryFact, MemoryScope, NewFact, SummaryUpdate } from "../types.js";

/** Options of {@link MemoryBackend.search}. */
export interface MemorySearchOptions {
  /** Most facts returned. Default 10. */
  readonly limit?: number;
}

/** Storage of memory documents. */
export interface MemoryBackend {
  /** Shown in errors (`Operation '…' not supported by memory backend '<name>'.`). */
  readonly name: string;
  /**
   * The scope's memory: the user's summaries and the agent's facts (an empty
   * document when nothing is stored).
   * @throws MemoryError `CORRUPTED` when stored data cannot be read
   */
  get(scope: MemoryScope): Promise<MemoryDocument>;
  /**
   * Adds a fact (content trimmed).
   * @returns the stored fact
   * @throws MemoryError `FACT_DUPLICATE` (same case-folded content in the scope), `INVALID_INPUT`
   */
  addFact(scope: MemoryScope, fact: NewFact): Promise<MemoryFact>;
  /**
   * Changes a fact; omitted fields are kept.
   * @throws MemoryError `FACT_NOT_FOUND`, `FACT_DUPLICATE` (new content equals another fact's), `INVALID_INPUT`
   */
  updateFact(scope: MemoryScope, id: string, patch: FactPatch): Promise<MemoryFact>;
  /**
   * Deletes a fact (physically).
   * @throws MemoryError `FACT_NOT_FOUND`
   */
  deleteFact(scope: MemoryScope, id: string): Promise<void>;
  /** Replaces summary sections (others are kept). */
  updateSummaries(scope: MemoryScope, update: SummaryUpdate): Promise<void>;
  /**
   * Deletes the user's summaries and the agent's facts.
   * @returns the (empty) document after clearing
   */
  clear(scope: MemoryScope): Promise<MemoryDocument>;
  /**
   * Replaces the scope's memory with a document (the export format). Facts keep
   * their ids; invalid facts and duplicates are dropped. All or nothing on success.
   * @returns the stored document
   * @throws MemoryError `INVALID_INPUT` for a value that is not a memory document
   */
  importMemory(scope: MemoryScope, document: unknown): Promise<MemoryDocument>;
  /**
   * Facts matching a text query, best first (then by confidence).
   */
  search(scope: MemoryScope, query: string, options?: MemorySearchOptions): Promise<MemoryFact[]>;
  /** Releases connections the backend opened itself. */
  close?(): Promise<void>;
}
