/**
 * `MemoryAssistantStore`: the assistant store of a single process. Every
 * method runs to completion without awaiting, so it is atomic with respect to
 * every other call; records go in and out as copies.
 */
import { RuntimeError } from "../errors.js";
import {
  applyAssistantPatch,
  assistantComparator,
  assistantExists,
  assistantMatches,
  assistantNotFound,
  assistantVersionNotFound,
  checkAssistantFilter,
  checkAssistantPatch,
  checkAssistantSearch,
  checkCreateAssistant,
  checkScope,
  checkVersion,
  checkVersionQuery,
  versionMatches,
} from "./assistant-input.js";
import type {
  AssistantFilter,
  AssistantPatch,
  AssistantRecord,
  AssistantScope,
  AssistantSearchQuery,
  AssistantSearchResult,
  AssistantStore,
  AssistantVersionQuery,
  AssistantVersionRecord,
  CreateAssistantInput,
} from "./assistant-store.js";

/** Options of {@link MemoryAssistantStore}. */
export interface MemoryAssistantStoreOptions {
  /** Clock for every timestamp the store writes. Default: `() => new Date()`. */
  now?: () => Date;
}

interface Entry {
  current: AssistantRecord;
  /** Ascending by version. */
  versions: AssistantVersionRecord[];
}

function copy<T>(value: T): T {
  return structuredClone(value);
}

/**
 * An {@link AssistantStore} in process memory, for a single server instance
 * and for tests. It behaves like the SQL stores (the conformance kit checks
 * all three) but loses everything when the process exits.
 *
 * @example
 * ```ts
 * const assistants = new MemoryAssistantStore();
 * const created = await assistants.create({ assistantId: "a1", graphId: "lead_agent", owner: "alice", name: "Researcher" });
 * await assistants.update("a1", { context: { agent_name: "researcher" } }, { owner: "alice" });
 * const mine = await assistants.search({ graphId: "lead_agent" }, { owner: "alice" });
 * ```
 */
export class MemoryAssistantStore implements AssistantStore {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => string;
  #closed = false;

  /** @param options - clock. */
  constructor(options: MemoryAssistantStoreOptions = {}) {
    const clock = options.now ?? (() => new Date());
    this.#now = () => clock().toISOString();
  }

  async create(input: CreateAssistantInput): Promise<AssistantRecord> {
    this.#open();
    const checked = checkCreateAssistant(input);
    const existing = this.#entries.get(checked.assistantId);
    if (existing !== undefined) {
      if (checked.ifExists === "do_nothing" && existing.current.owner === checked.owner) return copy(existing.current);
      throw assistantExists(checked.assistantId);
    }
    const now = this.#now();
    const { assistantId, owner, graphId, name, description, config, context, metadata } = checked;
    const content = { graphId, name, description, config, context, metadata };
    const current: AssistantRecord = { assistantId, owner, ...content, version: 1, createdAt: now, updatedAt: now };
    this.#entries.set(assistantId, { current, versions: [{ assistantId, ...content, version: 1, createdAt: now }] });
    return copy(current);
  }

  async get(assistantId: string, scope: AssistantScope): Promise<AssistantRecord | undefined> {
    const entry = this.#visible(assistantId, scope);
    return entry === undefined ? undefined : copy(entry.current);
  }

  async search(query: AssistantSearchQuery, scope: AssistantScope): Promise<AssistantSearchResult> {
    this.#open();
    const checked = checkAssistantSearch(query);
    const matches = this.#inScope(scope).filter((a) => assistantMatches(a, checked));
    matches.sort(assistantComparator(checked.sortBy, checked.sortOrder));
    return {
      items: matches.slice(checked.offset, checked.offset + checked.limit).map(copy),
      total: matches.length,
    };
  }

  async count(filter: AssistantFilter, scope: AssistantScope): Promise<number> {
    this.#open();
    const checked = checkAssistantFilter(filter);
    return this.#inScope(scope).filter((a) => assistantMatches(a, checked)).length;
  }

  async update(assistantId: string, patch: AssistantPatch, scope: AssistantScope): Promise<AssistantRecord> {
    const checked = checkAssistantPatch(patch);
    const entry = this.#require(assistantId, scope);
    const content = applyAssistantPatch(entry.current, checked);
    const version = (entry.versions.at(-1)?.version ?? 0) + 1;
    const now = this.#now();
    entry.versions.push(copy({ assistantId: entry.current.assistantId, ...content, version, createdAt: now }));
    entry.current = copy({ ...entry.current, ...content, version, updatedAt: now });
    return copy(entry.current);
  }

  async delete(assistantId: string, scope: AssistantScope): Promise<void> {
    this.#require(assistantId, scope);
    this.#entries.delete(assistantId);
  }

  async listVersions(
    assistantId: string,
    query: AssistantVersionQuery,
    scope: AssistantScope,
  ): Promise<AssistantVersionRecord[]> {
    const checked = checkVersionQuery(query);
    const entry = this.#require(assistantId, scope);
    return entry.versions
      .filter((v) => versionMatches(v, checked.metadata))
      .reverse()
      .slice(checked.offset, checked.offset + checked.limit)
      .map(copy);
  }

  async setLatest(assistantId: string, version: number, scope: AssistantScope): Promise<AssistantRecord> {
    const wanted = checkVersion(version);
    const entry = this.#require(assistantId, scope);
    const chosen = entry.versions.find((v) => v.version === wanted);
    if (chosen === undefined) throw assistantVersionNotFound(assistantId, wanted);
    const { graphId, name, description, config, context, metadata } = chosen;
    entry.current = copy({
      ...entry.current,
      ...{ graphId, name, description, config, context, metadata },
      version: wanted,
      updatedAt: this.#now(),
    });
    return copy(entry.current);
  }

  /** Marks the store closed; later calls fail with `CLOSED`. The data is kept. */
  async close(): Promise<void> {
    this.#closed = true;
  }

  #open(): void {
    if (this.#closed) throw new RuntimeError("CLOSED", "MemoryAssistantStore is closed");
  }

  #inScope(scope: AssistantScope): AssistantRecord[] {
    const owner = checkScope(scope);
    const all = [...this.#entries.values()].map((e) => e.current);
    return owner === undefined ? all : all.filter((a) => a.owner === owner);
  }

  #visible(assistantId: string, scope: AssistantScope): Entry | undefined {
    this.#open();
    const owner = checkScope(scope);
    if (typeof assistantId !== "string") return undefined;
    const entry = this.#entries.get(assistantId);
    if (entry === undefined || (owner !== undefined && entry.current.owner !== owner)) return undefined;
    return entry;
  }

  #require(assistantId: string, scope: AssistantScope): Entry {
    const entry = this.#visible(assistantId, scope);
    if (entry === undefined) throw assistantNotFound(String(assistantId));
    return entry;
  }
}
