/**
 * Every assistant the LangGraph routes serve, under one lookup: the system
 * assistants of the {@link AssistantRegistry} (one or more per graph, fixed at
 * startup, read-only) and, when an `AssistantStore` is configured, the
 * assistants users create, each visible to its owner only (admins see all).
 * A lookup of an id the caller may not see answers exactly like an unknown id.
 */
import {
  RuntimeError,
  type AssistantFilter,
  type AssistantRecord,
  type AssistantScope,
  type AssistantSortField,
  type AssistantStore,
} from "@deerflow/runtime";
import type { Principal } from "../auth/principal.js";
import { GatewayError } from "../errors.js";
import type { AssistantConfig, AssistantRegistry, RegisteredAssistant } from "./assistant-registry.js";

/** An assistant as the routes answer it, whichever kind it is. */
export interface ServedAssistant {
  readonly assistantId: string;
  readonly graphId: string;
  readonly name: string;
  readonly description: string | null;
  readonly config: AssistantConfig;
  readonly context: Readonly<Record<string, unknown>>;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The creator of a stored assistant; undefined for a system one. */
  readonly owner: string | undefined;
  /**
   * The system assistant of the graph: what runs and reads state (for a system
   * assistant, itself); undefined for a stored assistant whose graph the server
   * no longer serves (it can still be read, updated and deleted, not run).
   */
  readonly system: RegisteredAssistant | undefined;
  /** True for a system assistant. */
  readonly isSystem: boolean;
}

/** Filter and page of {@link AssistantDirectory.search} (wire names resolved). */
export interface DirectorySearch {
  readonly graphId?: string;
  readonly name?: string;
  readonly metadata?: Record<string, unknown>;
  readonly limit: number;
  readonly offset: number;
  /** Absent: system assistants first (registration order), then stored ones newest first. */
  readonly sortBy?: AssistantSortField;
  /** Default `asc` when `sortBy` is given. */
  readonly sortOrder?: "asc" | "desc";
}

/** Largest page the stores answer. */
const STORE_PAGE = 1000;

/** The store scope of a caller: an admin sees every owner's assistants. */
export function assistantScopeOf(principal: Principal): AssistantScope {
  return principal.admin ? { allOwners: true } : { owner: principal.userId };
}

/** `ASSISTANT_NOT_FOUND` (404) for an id the caller cannot see. */
function assistantNotFound(id: string): RuntimeError {
  return new RuntimeError("ASSISTANT_NOT_FOUND", `No assistant found for "${id}"`, { details: { assistantId: id } });
}

function fromSystem(assistant: RegisteredAssistant): ServedAssistant {
  return {
    assistantId: assistant.assistantId,
    graphId: assistant.graphId,
    name: assistant.name ?? assistant.graphId,
    description: assistant.description ?? null,
    config: assistant.config ?? {},
    context: assistant.context ?? {},
    metadata: assistant.metadata ?? {},
    version: 1,
    createdAt: assistant.createdAt,
    updatedAt: assistant.createdAt,
    owner: undefined,
    system: assistant,
    isSystem: true,
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** System and stored assistants behind one owner-scoped lookup. */
export class AssistantDirectory {
  /**
   * @param registry - the system assistants.
   * @param store - user-created assistants; absent: the routes serve system assistants only and refuse writes.
   */
  constructor(
    readonly registry: AssistantRegistry,
    readonly store: AssistantStore | undefined,
  ) {}

  /** The system assistant of `graphId` (its first), or undefined for a graph the server does not serve. */
  systemOfGraph(graphId: string): RegisteredAssistant | undefined {
    const assistant = this.registry.get(graphId);
    return assistant?.graphId === graphId ? assistant : undefined;
  }

  /** A system assistant by assistant id or graph id. */
  systemAssistant(id: string): RegisteredAssistant | undefined {
    return this.registry.get(id);
  }

  /** A stored assistant as served. */
  served(record: AssistantRecord): ServedAssistant {
    const system = this.systemOfGraph(record.graphId);
    return {
      assistantId: record.assistantId,
      graphId: record.graphId,
      name: record.name,
      description: record.description,
      config: record.config as AssistantConfig,
      context: record.context,
      metadata: record.metadata,
      version: record.version,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      owner: record.owner,
      system,
      isSystem: false,
    };
  }

  /** The assistant `id` names for the caller: a system assistant by id or graph id, else the caller's stored one. */
  async find(principal: Principal, id: string): Promise<ServedAssistant | undefined> {
    const system = this.registry.get(id);
    if (system !== undefined) return fromSystem(system);
    if (this.store === undefined) return undefined;
    const record = await this.store.get(id, assistantScopeOf(principal));
    return record === undefined ? undefined : this.served(record);
  }

  /**
   * The assistant `id` names for the caller.
   *
   * @throws RuntimeError `ASSISTANT_NOT_FOUND` (404) for an unknown id or another user's assistant.
   */
  async require(principal: Principal, id: string): Promise<ServedAssistant> {
    const assistant = await this.find(principal, id);
    if (assistant === undefined) throw assistantNotFound(id);
    return assistant;
  }

  /** The stored assistant `id` names for a write, refusing system assistants. */
  async requireStored(principal: Principal, id: string, action: string): Promise<ServedAssistant> {
    const assistant = await this.require(principal, id);
    if (assistant.isSystem)
      throw new GatewayError(
        "FORBIDDEN",
        `Assistant ${id} is the system assistant of graph ${assistant.graphId} (defined by the server's configuration) and cannot be ${action}; create your own assistant of the graph instead`,
      );
    return assistant;
  }

  /**
   * The store, for a write.
   *
   * @throws GatewayError `FORBIDDEN` (403) when the server keeps no user-created assistants.
   */
  writableStore(): AssistantStore {
    if (this.store === undefined)
      throw new GatewayError(
        "FORBIDDEN",
        "This server keeps no user-created assistants (no assistant store is configured); only its system assistants exist",
      );
    return this.store;
  }

  /** Assistants matching `query` visible to the caller, one page, and the match count. */
  async search(principal: Principal, query: DirectorySearch): Promise<{ items: ServedAssistant[]; total: number }> {
    const system = this.#systemMatches(query);
    const filter = this.#storeFilter(query);
    const scope = assistantScopeOf(principal);
    const { limit, offset } = query;
    if (this.store === undefined) {
      const sorted = query.sortBy === undefined ? system : this.#sorted(system, query);
      return { items: sorted.slice(offset, offset + limit), total: sorted.length };
    }
    if (query.sortBy === undefined) {
      const fromSystem = system.slice(offset, offset + limit);
      const remaining = limit - fromSystem.length;
      const storeOffset = Math.max(0, offset - system.length);
      const page =
        remaining > 0
          ? await this.store.search({ ...filter, limit: remaining, offset: storeOffset }, scope)
          : { items: [], total: await this.store.count(filter, scope) };
      return { items: [...fromSystem, ...this.#servable(page.items)], total: system.length + page.total };
    }
    // A sorted page interleaves both kinds: take the store's first offset+limit in that order and merge.
    const wanted = offset + limit;
    const stored: AssistantRecord[] = [];
    let total = 0;
    const sortOrder = query.sortOrder ?? "asc";
    for (let from = 0; from < wanted; from += STORE_PAGE) {
      const size = Math.min(STORE_PAGE, wanted - from);
      const page = await this.store.search(
        { ...filter, limit: size, offset: from, sortBy: query.sortBy, sortOrder },
        scope,
      );
      stored.push(...page.items);
      total = page.total;
      if (page.items.length < size) break;
    }
    const merged = this.#sorted([...system, ...this.#servable(stored)], query);
    return { items: merged.slice(offset, offset + limit), total: system.length + total };
  }

  /** How many assistants matching `query` the caller can see. */
  async count(
    principal: Principal,
    query: Omit<DirectorySearch, "limit" | "offset" | "sortBy" | "sortOrder">,
  ): Promise<number> {
    const system = this.#systemMatches(query).length;
    if (this.store === undefined) return system;
    return system + (await this.store.count(this.#storeFilter(query), assistantScopeOf(principal)));
  }

  #systemMatches(query: Pick<DirectorySearch, "graphId" | "name" | "metadata">): ServedAssistant[] {
    return this.registry.search({ ...this.#storeFilter(query), limit: Number.MAX_SAFE_INTEGER }).map(fromSystem);
  }

  #storeFilter(query: Pick<DirectorySearch, "graphId" | "name" | "metadata">): AssistantFilter {
    return {
      ...(query.graphId === undefined ? {} : { graphId: query.graphId }),
      ...(query.name === undefined ? {} : { name: query.name }),
      ...(query.metadata === undefined ? {} : { metadata: query.metadata }),
    };
  }

  #servable(records: readonly AssistantRecord[]): ServedAssistant[] {
    return records.map((r) => this.served(r));
  }

  #sorted(items: ServedAssistant[], query: Pick<DirectorySearch, "sortBy" | "sortOrder">): ServedAssistant[] {
    const field = query.sortBy ?? "createdAt";
    const sign = query.sortOrder === "desc" ? -1 : 1;
    return [...items].sort((a, b) => sign * (compare(a[field], b[field]) || compare(a.assistantId, b.assistantId)));
  }
}
