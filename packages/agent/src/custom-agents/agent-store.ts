/**
 * `AgentStore`: where a user's custom agents (config + SOUL.md), the default
 * agent's SOUL.md and each user's profile (USER.md) live. Every method takes
 * the user explicitly — the caller's authenticated user, never one named by a
 * request body — and names are checked and lowercased by the store.
 *
 * Implementations: `FileAgentStore` (DeerFlow's folder layout) and
 * `StoreAgentStore` (a LangGraph `BaseStore`, shared by several server
 * instances); `agentStoreConformance` of `@deerflow/agent/testing` checks a
 * third one.
 */
import type { AgentConfig } from "./agent-config.js";

/** What an update writes: a whole new config, a new SOUL.md, or both (absent: unchanged). */
export interface AgentChange {
  readonly config?: AgentConfig;
  readonly soul?: string;
}

/** A custom-agent store. */
export interface AgentStore {
  /**
   * The user's agents, sorted by name.
   *
   * @param userId - the owner
   */
  list(userId: string): Promise<AgentConfig[]>;
  /**
   * One agent's config.
   *
   * @returns the config, or `undefined` when the user has no such agent
   * @throws AgentError `AGENT_NAME_INVALID`, `AGENT_CONFIG_INVALID` (a stored config that breaks the rules)
   */
  get(userId: string, name: string): Promise<AgentConfig | undefined>;
  /**
   * One agent's SOUL.md.
   *
   * @returns the text, or `undefined` when the agent has none (or does not exist)
   */
  getSoul(userId: string, name: string): Promise<string | undefined>;
  /** Whether the name is taken for the user (what `create` would refuse). */
  exists(userId: string, name: string): Promise<boolean>;
  /**
   * Creates an agent.
   *
   * @param config - its config (`config.name` is normalised)
   * @param soul - its SOUL.md
   * @returns the stored config
   * @throws AgentError `AGENT_EXISTS`, `AGENT_NAME_INVALID`
   */
  create(userId: string, config: AgentConfig, soul: string): Promise<AgentConfig>;
  /**
   * Updates an agent; with `upsert`, creates it when missing (DeerFlow's `setup_agent`).
   *
   * @returns the stored config
   * @throws AgentError `AGENT_NOT_FOUND` (without `upsert`), `AGENT_LEGACY_ONLY`, `AGENT_NAME_INVALID`
   */
  update(
    userId: string,
    name: string,
    change: AgentChange,
    options?: { readonly upsert?: boolean },
  ): Promise<AgentConfig>;
  /**
   * Deletes an agent (its config and SOUL.md; memory kept by the memory backend is not this store's).
   *
   * @throws AgentError `AGENT_NOT_FOUND`, `AGENT_LEGACY_ONLY`, `AGENT_MEMORY_ONLY`
   */
  delete(userId: string, name: string): Promise<void>;
  /** The default agent's SOUL.md (shared by every user), or `undefined`. */
  getDefaultSoul(): Promise<string | undefined>;
  /** Replaces the default agent's SOUL.md. */
  setDefaultSoul(soul: string): Promise<void>;
  /** The user's profile (USER.md), or `undefined`. */
  getUserProfile(userId: string): Promise<string | undefined>;
  /** Replaces the user's profile. */
  setUserProfile(userId: string, content: string): Promise<void>;
}
