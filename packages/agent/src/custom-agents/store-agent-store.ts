/**
 * `StoreAgentStore`: custom agents on a LangGraph `BaseStore` (the server's
 * SQLite or PostgreSQL graph store, `InMemoryStore` in tests), so several
 * server instances share them. Layout under `prefix` (default
 * `["deerflow", "agents"]`):
 *
 * - `[...prefix, "users", <user>]`, key `<name>`: `{ config, soul }` — one record
 *   per agent, so a config and its SOUL.md change together in one write;
 * - `[...prefix, "profiles", <user>]`, key `USER.md`: `{ content }`;
 * - `[...prefix, "default"]`, key `SOUL.md`: `{ content }`.
 *
 * User labels are percent-encoded (a store label may hold no `.`). Writes of
 * one agent are serialised in this process; `BaseStore` has no
 * compare-and-set, so two instances creating the same name at the same
 * instant may both succeed (the later write wins), unlike `FileAgentStore`.
 */
import { KeyedLock } from "@deerflow/kernel";
import type { BaseStore } from "@langchain/langgraph";
import { agentConfigDocument, normalizeAgentName, parseAgentConfig, type AgentConfig } from "./agent-config.js";
import type { AgentChange, AgentStore } from "./agent-store.js";
import { agentExists, agentNotFound } from "./store-errors.js";
import { checkUserId } from "./user-segment.js";

/** Options of {@link StoreAgentStore}. */
export interface StoreAgentStoreOptions {
  /** The LangGraph store (its lifetime is the caller's). */
  readonly store: BaseStore;
  /** Namespace prefix. Default `["deerflow", "agents"]`. */
  readonly prefix?: readonly string[];
}

interface AgentRecord {
  readonly config: Record<string, unknown>;
  readonly soul: string | null;
}

const PAGE = 500;

const label = (userId: string): string => encodeURIComponent(checkUserId(userId)).replace(/\./g, "%2E");
const present = (text: unknown): string | undefined =>
  typeof text !== "string" || text.trim() === "" ? undefined : text;

/** Custom agents on a LangGraph `BaseStore`. */
export class StoreAgentStore implements AgentStore {
  readonly #store: BaseStore;
  readonly #prefix: readonly string[];
  readonly #lock = new KeyedLock();

  /** @param options - the store and namespace prefix */
  constructor(options: StoreAgentStoreOptions) {
    this.#store = options.store;
    this.#prefix = options.prefix ?? ["deerflow", "agents"];
  }

  #agents(userId: string): string[] {
    return [...this.#prefix, "users", label(userId)];
  }

  async #record(userId: string, name: string): Promise<AgentRecord | undefined> {
    const item = await this.#store.get(this.#agents(userId), name);
    return item === null ? undefined : (item.value as unknown as AgentRecord);
  }

  async list(userId: string): Promise<AgentConfig[]> {
    const out: AgentConfig[] = [];
    const namespace = this.#agents(userId);
    for (let offset = 0; ; offset += PAGE) {
      const items = await this.#store.search(namespace, { limit: PAGE, offset });
      for (const item of items) {
        // search matches by prefix: only this user's own namespace, not a deeper one.
        if (item.namespace.length !== namespace.length) continue;
        try {
          out.push(parseAgentConfig(normalizeAgentName(item.key), (item.value as unknown as AgentRecord).config));
        } catch {
          // A broken record must not hide the others; `get` reports it.
        }
      }
      if (items.length < PAGE) break;
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(userId: string, name: string): Promise<AgentConfig | undefined> {
    const n = normalizeAgentName(name);
    const record = await this.#record(userId, n);
    return record === undefined ? undefined : parseAgentConfig(n, record.config);
  }

  async getSoul(userId: string, name: string): Promise<string | undefined> {
    return present((await this.#record(userId, normalizeAgentName(name)))?.soul);
  }

  async exists(userId: string, name: string): Promise<boolean> {
    return (await this.#record(userId, normalizeAgentName(name))) !== undefined;
  }

  async create(userId: string, config: AgentConfig, soul: string): Promise<AgentConfig> {
    const name = normalizeAgentName(config.name);
    const stored = { ...config, name };
    return this.#lock.run(`${userId}\u0000${name}`, async () => {
      if ((await this.#record(userId, name)) !== undefined) throw agentExists(name);
      await this.#store.put(this.#agents(userId), name, { config: agentConfigDocument(stored), soul });
      return stored;
    });
  }

  async update(
    userId: string,
    name: string,
    change: AgentChange,
    options: { readonly upsert?: boolean } = {},
  ): Promise<AgentConfig> {
    const n = normalizeAgentName(name);
    return this.#lock.run(`${userId}\u0000${n}`, async () => {
      const record = await this.#record(userId, n);
      if (record === undefined && options.upsert !== true) throw agentNotFound(n);
      const config = { ...(change.config ?? parseAgentConfig(n, record?.config ?? null)), name: n };
      await this.#store.put(this.#agents(userId), n, {
        config: agentConfigDocument(config),
        soul: change.soul ?? record?.soul ?? null,
      });
      return config;
    });
  }

  async delete(userId: string, name: string): Promise<void> {
    const n = normalizeAgentName(name);
    await this.#lock.run(`${userId}\u0000${n}`, async () => {
      if ((await this.#record(userId, n)) === undefined) throw agentNotFound(n);
      await this.#store.delete(this.#agents(userId), n);
    });
  }

  async getDefaultSoul(): Promise<string | undefined> {
    const item = await this.#store.get([...this.#prefix, "default"], "SOUL.md");
    return present(item?.value["content"]);
  }

  async setDefaultSoul(soul: string): Promise<void> {
    await this.#store.put([...this.#prefix, "default"], "SOUL.md", { content: soul });
  }

  async getUserProfile(userId: string): Promise<string | undefined> {
    const item = await this.#store.get([...this.#prefix, "profiles", label(userId)], "USER.md");
    return present(item?.value["content"]);
  }

  async setUserProfile(userId: string, content: string): Promise<void> {
    await this.#store.put([...this.#prefix, "profiles", label(userId)], "USER.md", { content });
  }
}
