/**
 * `StoreMemoryBackend`: memory on any LangGraph `BaseStore` (`InMemoryStore`,
 * `PostgresStore`, a SQLite store…), so memory scales out with the store the
 * deployment already has. Layout (namespaces under `prefix`, default
 * `["deerflow", "memory"]`):
 *
 * - `[...prefix, <user>]`, key `summaries`: `{ version, revision, lastUpdated, user, history }`
 * - `[...prefix, <user>, "agents", <agent>]`, key `<fact id>`: one fact each (agent `~default` for
 *   the default lead agent)
 *
 * Writes of one user are serialised in this process (duplicate checks and the
 * revision stay exact); `BaseStore` has no compare-and-set, so two server
 * instances writing one user's memory at the same instant may both pass a
 * duplicate check (the next extraction's dedupe removes nothing, but the
 * injection shows the fact twice). The revision is bumped on every write.
 */
import { KeyedLock } from "@deerflow/kernel";
import type { BaseStore, Item } from "@langchain/langgraph";
import {
  DEFAULT_AGENT_BUCKET,
  agentBucketOf,
  applySummaryUpdate,
  byConfidence,
  emptySummaries,
  readSummaries,
  searchFacts,
} from "../document.js";
import { MEMORY_ERROR_TEXT, MemoryError } from "../errors.js";
import { buildFact, checkFactId, factKey, parseStoredFact, patchFact } from "../facts/fact-rules.js";
import type {
  FactPatch,
  MemoryDocument,
  MemoryFact,
  MemoryScope,
  MemorySummaries,
  NewFact,
  SummaryUpdate,
} from "../types.js";
import type { MemoryBackend, MemorySearchOptions } from "./memory-backend.js";

/** Options of {@link StoreMemoryBackend}. */
export interface StoreMemoryBackendOptions {
  /** The LangGraph store (its lifetime is the caller's). */
  readonly store: BaseStore;
  /** Namespace prefix. Default `["deerflow", "memory"]`. */
  readonly prefix?: readonly string[];
  /** Clock (tests). Default `() => new Date()`. */
  readonly now?: () => Date;
}

const SUMMARIES_KEY = "summaries";
/** Items per store search: one call for any scope under 2,048 facts (a full page costs one more call). */
const PAGE = 2048;

interface StoredManifest extends MemorySummaries {
  readonly version: "1.0";
  readonly revision: number;
  readonly lastUpdated: string;
}

/**
 * A namespace label for an id: stores refuse dots (every store), and `%`, `_`
 * and `\\` (PostgresStore: LIKE wildcards), which user ids and fact buckets
 * may hold. Every byte outside `[A-Za-z0-9-]` becomes `~<hex>`: injective and
 * readable for plain ids.
 */
function label(id: string): string {
  let out = "";
  for (const byte of Buffer.from(id, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9-]/.test(c) ? c : `~${byte.toString(16).padStart(2, "0")}`;
  }
  return out;
}

/** The default agent's label (`~` then a non-hex letter: no encoded name looks like it). */
const DEFAULT_AGENT_LABEL = "~default";

/** Memory on a LangGraph `BaseStore`. */
export class StoreMemoryBackend implements MemoryBackend {
  readonly name = "StoreMemoryBackend";
  readonly #store: BaseStore;
  readonly #prefix: readonly string[];
  readonly #now: () => Date;
  readonly #locks = new KeyedLock();

  /** @param options - the store and the namespace prefix */
  constructor(options: StoreMemoryBackendOptions) {
    this.#store = options.store;
    this.#prefix = options.prefix ?? ["deerflow", "memory"];
    this.#now = options.now ?? (() => new Date());
  }

  #userNs(scope: MemoryScope): string[] {
    agentBucketOf(scope);
    return [...this.#prefix, label(scope.userId)];
  }

  #factsNs(scope: MemoryScope): string[] {
    const bucket = agentBucketOf(scope);
    return [
      ...this.#prefix,
      label(scope.userId),
      "agents",
      bucket === DEFAULT_AGENT_BUCKET ? DEFAULT_AGENT_LABEL : label(bucket),
    ];
  }

  async #manifest(scope: MemoryScope): Promise<StoredManifest> {
    const item = await this.#store.get(this.#userNs(scope), SUMMARIES_KEY);
    if (item === null) return { version: "1.0", revision: 0, lastUpdated: "", ...emptySummaries() };
    const v = item.value as Record<string, unknown>;
    const revision = typeof v["revision"] === "number" ? v["revision"] : 0;
    const lastUpdated = typeof v["lastUpdated"] === "string" ? v["lastUpdated"] : "";
    return { version: "1.0", revision, lastUpdated, ...readSummaries(v) };
  }

  async #facts(scope: MemoryScope): Promise<MemoryFact[]> {
    const ns = this.#factsNs(scope);
    const facts: MemoryFact[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page: Item[] = await this.#store.search(ns, { limit: PAGE, offset });
      for (const item of page) {
        // Only this bucket: a prefix search would also list deeper namespaces.
        if (item.namespace.length !== ns.length) continue;
        const fact = parseStoredFact(item.value);
        if (fact === undefined) throw new MemoryError("CORRUPTED", MEMORY_ERROR_TEXT.corrupted);
        facts.push(fact);
      }
      if (page.length < PAGE) return facts;
    }
  }

  async #bump(scope: MemoryScope, summaries?: MemorySummaries): Promise<void> {
    const current = await this.#manifest(scope);
    const next: StoredManifest = {
      version: "1.0",
      revision: current.revision + 1,
      lastUpdated: this.#now().toISOString(),
      user: (summaries ?? current).user,
      history: (summaries ?? current).history,
    };
    await this.#store.put(this.#userNs(scope), SUMMARIES_KEY, next as unknown as Record<string, unknown>);
  }

  #write<T>(scope: MemoryScope, task: () => Promise<T>): Promise<T> {
    return this.#locks.run(this.#userNs(scope).join("/"), task);
  }

  async get(scope: MemoryScope): Promise<MemoryDocument> {
    const [manifest, facts] = await Promise.all([this.#manifest(scope), this.#facts(scope)]);
    return { ...manifest, facts: facts.sort(byConfidence) };
  }

  async addFact(scope: MemoryScope, input: NewFact): Promise<MemoryFact> {
    const fact = buildFact(input, this.#now().toISOString());
    return this.#write(scope, async () => {
      const key = factKey(fact.content);
      if ((await this.#facts(scope)).some((f) => factKey(f.content) === key))
        throw new MemoryError("FACT_DUPLICATE", MEMORY_ERROR_TEXT.duplicate);
      await this.#store.put(this.#factsNs(scope), fact.id, fact as unknown as Record<string, unknown>);
      await this.#bump(scope);
      return fact;
    });
  }

  async updateFact(scope: MemoryScope, id: string, patch: FactPatch): Promise<MemoryFact> {
    checkFactId(id);
    return this.#write(scope, async () => {
      const facts = await this.#facts(scope);
      const fact = facts.find((f) => f.id === id);
      if (fact === undefined) throw new MemoryError("FACT_NOT_FOUND", MEMORY_ERROR_TEXT.notFound(id));
      const next = patchFact(fact, patch, this.#now().toISOString());
      const key = factKey(next.content);
      if (facts.some((f) => f.id !== id && factKey(f.content) === key))
        throw new MemoryError("FACT_DUPLICATE", MEMORY_ERROR_TEXT.duplicate);
      await this.#store.put(this.#factsNs(scope), id, next as unknown as Record<string, unknown>);
      await this.#bump(scope);
      return next;
    });
  }

  async deleteFact(scope: MemoryScope, id: string): Promise<void> {
    checkFactId(id);
    return this.#write(scope, async () => {
      const ns = this.#factsNs(scope);
      if ((await this.#store.get(ns, id)) === null)
        throw new MemoryError("FACT_NOT_FOUND", MEMORY_ERROR_TEXT.notFound(id));
      await this.#store.delete(ns, id);
      await this.#bump(scope);
    });
  }

  async updateSummaries(scope: MemoryScope, update: SummaryUpdate): Promise<void> {
    return this.#write(scope, async () => {
      const current = await this.#manifest(scope);
      await this.#bump(scope, applySummaryUpdate(current, update, this.#now().toISOString()));
    });
  }

  async clear(scope: MemoryScope): Promise<MemoryDocument> {
    return this.#write(scope, async () => {
      const ns = this.#factsNs(scope);
      const facts = await this.#facts(scope);
      if (facts.length > 0) await this.#store.batch(facts.map((f) => ({ namespace: ns, key: f.id, value: null })));
      await this.#bump(scope, emptySummaries());
      return this.get(scope);
    });
  }

  async importMemory(scope: MemoryScope, document: unknown): Promise<MemoryDocument> {
    if (typeof document !== "object" || document === null || Array.isArray(document))
      throw new MemoryError("INVALID_INPUT", "An import must be a memory document (an object).");
    const doc = document as Record<string, unknown>;
    const summaries = readSummaries(doc);
    const rawFacts = doc["facts"] ?? [];
    if (!Array.isArray(rawFacts)) throw new MemoryError("INVALID_INPUT", "An import's facts must be an array.");
    const seen = new Set<string>();
    const facts: MemoryFact[] = [];
    for (const raw of rawFacts) {
      const fact = parseStoredFact(raw);
      if (fact === undefined) continue;
      const key = factKey(fact.content);
      if (seen.has(key)) continue;
      seen.add(key);
      facts.push({ ...fact, content: fact.content.trim() });
    }
    return this.#write(scope, async () => {
      const ns = this.#factsNs(scope);
      const old = await this.#facts(scope);
      const keep = new Set(facts.map((f) => f.id));
      // One batch call: the deletes and puts reach the store together.
      await this.#store.batch([
        ...old.filter((f) => !keep.has(f.id)).map((f) => ({ namespace: ns, key: f.id, value: null })),
        ...facts.map((f) => ({ namespace: ns, key: f.id, value: f as unknown as Record<string, unknown> })),
      ]);
      await this.#bump(scope, summaries);
      return this.get(scope);
    });
  }

  async search(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<MemoryFact[]> {
    return searchFacts(await this.#facts(scope), query, options.limit ?? 10);
  }
}
