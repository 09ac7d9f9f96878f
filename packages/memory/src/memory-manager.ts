/**
 * `MemoryManager`: the policy over a {@link MemoryBackend} that the routes,
 * the extraction step and the memory tools all go through — `max_facts`
 * eviction after every write, DeerFlow's "evicted at once" refusal for a
 * fact that would not survive it, and the application of an extraction's
 * write plan.
 */
import type { MemoryBackend, MemorySearchOptions } from "./backend/memory-backend.js";
import { MEMORY_ERROR_TEXT, MemoryError } from "./errors.js";
import { factsToEvict, wouldBeEvicted } from "./facts/eviction.js";
import { silentLogger, type Logger } from "./logger.js";
import { resolveMemorySettings, type MemorySettings } from "./memory-settings.js";
import type { FactPatch, MemoryDocument, MemoryFact, MemoryScope, NewFact } from "./types.js";
import type { MemoryWritePlan } from "./extraction/write-gate.js";

/** Options of {@link MemoryManager}. */
export interface MemoryManagerOptions {
  readonly backend: MemoryBackend;
  /** Policy settings (DeerFlow's defaults for the rest). */
  readonly settings?: Partial<MemorySettings>;
  readonly logger?: Logger;
}

/** What applying a write plan changed. */
export interface MemoryWriteResult {
  readonly added: readonly MemoryFact[];
  readonly removed: readonly string[];
  readonly reinforced: readonly string[];
  readonly evicted: readonly string[];
  readonly summariesUpdated: boolean;
}

/** Memory with its policy. */
export class MemoryManager {
  readonly backend: MemoryBackend;
  readonly settings: MemorySettings;
  readonly #logger: Logger;

  /** @param options - backend, settings, logger */
  constructor(options: MemoryManagerOptions) {
    this.backend = options.backend;
    this.settings = resolveMemorySettings(options.settings);
    this.#logger = options.logger ?? silentLogger;
  }

  /** The scope's memory. */
  get(scope: MemoryScope): Promise<MemoryDocument> {
    return this.backend.get(scope);
  }

  /**
   * Adds a fact, then trims to `max_facts`.
   * @throws MemoryError `FACT_EVICTED` when the store is full of stronger facts; the backend's errors
   */
  async addFact(scope: MemoryScope, fact: NewFact): Promise<MemoryFact> {
    const { facts } = await this.backend.get(scope);
    if (wouldBeEvicted(facts, fact.confidence ?? 0.5, this.settings.maxFacts))
      throw new MemoryError("FACT_EVICTED", MEMORY_ERROR_TEXT.evicted);
    const added = await this.backend.addFact(scope, fact);
    const evicted = await this.enforceCapacity(scope);
    if (evicted.includes(added.id)) throw new MemoryError("FACT_EVICTED", MEMORY_ERROR_TEXT.evicted);
    return added;
  }

  /** Changes a fact (then trims: a lowered confidence may fall out). */
  async updateFact(scope: MemoryScope, id: string, patch: FactPatch): Promise<MemoryFact> {
    const fact = await this.backend.updateFact(scope, id, patch);
    await this.enforceCapacity(scope);
    return fact;
  }

  deleteFact(scope: MemoryScope, id: string): Promise<void> {
    return this.backend.deleteFact(scope, id);
  }

  clear(scope: MemoryScope): Promise<MemoryDocument> {
    return this.backend.clear(scope);
  }

  /** Replaces the scope's memory with an exported document, then trims to `max_facts`. */
  async importMemory(scope: MemoryScope, document: unknown): Promise<MemoryDocument> {
    await this.backend.importMemory(scope, document);
    await this.enforceCapacity(scope);
    return this.backend.get(scope);
  }

  search(scope: MemoryScope, query: string, options?: MemorySearchOptions): Promise<MemoryFact[]> {
    return this.backend.search(scope, query, options);
  }

  /**
   * Deletes the facts beyond `max_facts` (lowest confidence first).
   * @returns the evicted ids
   */
  async enforceCapacity(scope: MemoryScope): Promise<string[]> {
    const { facts } = await this.backend.get(scope);
    const evict = factsToEvict(facts, this.settings.maxFacts);
    for (const fact of evict) {
      await this.backend.deleteFact(scope, fact.id).catch((err: unknown) => {
        // Deleted concurrently: the goal is reached anyway.
        if (!(MemoryError.isInstance(err) && err.code === "FACT_NOT_FOUND")) throw err;
      });
    }
    if (evict.length > 0) this.#logger.info({ evicted: evict.length, scope }, "memory facts evicted (max_facts)");
    return evict.map((f) => f.id);
  }

  /**
   * Applies an extraction's write plan: summaries, removals, reinforcements,
   * extensions, new facts (a duplicate that appeared meanwhile is skipped), then eviction.
   *
   * @param scope - user and agent
   * @param plan - from `gateMemoryUpdate`
   * @returns what changed
   */
  async applyPlan(scope: MemoryScope, plan: MemoryWritePlan): Promise<MemoryWriteResult> {
    const summariesUpdated =
      Object.keys(plan.summaries.user ?? {}).length + Object.keys(plan.summaries.history ?? {}).length > 0;
    if (summariesUpdated) await this.backend.updateSummaries(scope, plan.summaries);
    const removed: string[] = [];
    for (const id of plan.remove) {
      try {
        await this.backend.deleteFact(scope, id);
        removed.push(id);
      } catch (err) {
        if (!(MemoryError.isInstance(err) && err.code === "FACT_NOT_FOUND")) throw err;
      }
    }
    const reinforced: string[] = [];
    for (const { id, patch } of plan.update) {
      try {
        await this.backend.updateFact(scope, id, patch);
        reinforced.push(id);
      } catch (err) {
        if (!(MemoryError.isInstance(err) && err.code === "FACT_NOT_FOUND")) throw err;
      }
    }
    const added: MemoryFact[] = [];
    for (const fact of plan.add) {
      try {
        added.push(await this.backend.addFact(scope, fact));
      } catch (err) {
        if (!(MemoryError.isInstance(err) && err.code === "FACT_DUPLICATE")) throw err;
      }
    }
    const evicted = await this.enforceCapacity(scope);
    return { added, removed, reinforced, evicted, summariesUpdated };
  }
}
