/**
 * Each custom agent is also a LangGraph assistant of the lead-agent graph
 * (issue 17), so the official SDK's `client.assistants.search / get` list a
 * user's agents and a run on the assistant is a run of the agent: the
 * assistant's `context` is `{ agent_name }`, its owner the agent's user, its
 * metadata `{ owner, custom_agent }`. Its id is a UUID (version 5) of the
 * owner and the agent name, so every instance derives the same id and a
 * create after a crash finds the assistant it already made.
 *
 * The agent is the source of truth: creating, changing (description) and
 * deleting an agent through the routes or the tools follows here; deleting
 * the assistant through the SDK leaves the agent alone (the next change of
 * the agent recreates it).
 */
import { createHash } from "node:crypto";
import type { AgentConfig } from "@deerflow/agent";
import { RuntimeError, type AssistantRecord, type AssistantStore } from "@deerflow/runtime";
import { silentLogger, type Logger } from "../logger.js";
import type { AgentRouteChange } from "./agents-routes.js";

/** The UUID namespace of custom-agent assistant ids (a fixed random UUID). */
const NAMESPACE = "8d6f1c2e-5b7a-4c1e-9f3d-2a6b8e4c0d17";

/**
 * RFC 9562 name-based UUID (version 5, SHA-1).
 *
 * @param name - the name
 * @param namespace - a UUID
 * @returns the UUID
 */
export function uuidV5(name: string, namespace: string = NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ""), "hex");
  const bytes = createHash("sha1").update(ns).update(name, "utf8").digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Options of {@link AgentAssistants}. */
export interface AgentAssistantsOptions {
  readonly store: AssistantStore;
  /** The lead agent's graph id. */
  readonly graphId: string;
  readonly logger?: Logger;
}

/** Keeps one assistant per custom agent. */
export class AgentAssistants {
  readonly #store: AssistantStore;
  readonly #graphId: string;
  readonly #logger: Logger;

  /** @param options - the assistant store and the lead agent's graph id */
  constructor(options: AgentAssistantsOptions) {
    this.#store = options.store;
    this.#graphId = options.graphId;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * @param owner - the agent's user
   * @param name - the agent's (lowercase) name
   * @returns the assistant id of that user's agent
   */
  assistantIdOf(owner: string, name: string): string {
    return uuidV5(`${owner}\u0000${name}`);
  }

  /**
   * Follows a change of an agent.
   *
   * @param change - created, updated or deleted, by whom
   */
  async apply(change: AgentRouteChange): Promise<void> {
    if (change.kind === "deleted") await this.remove(change.userId, change.config.name);
    else await this.upsert(change.userId, change.config);
  }

  /**
   * Creates the agent's assistant, or brings its name and description up to date.
   *
   * @returns the assistant
   */
  async upsert(owner: string, config: AgentConfig): Promise<AssistantRecord> {
    const assistantId = this.assistantIdOf(owner, config.name);
    const scope = { owner };
    const description = config.description === "" ? null : config.description;
    const current = await this.#store.get(assistantId, scope);
    if (current === undefined) {
      const created = await this.#store.create({
        assistantId,
        graphId: this.#graphId,
        owner,
        name: config.name,
        description,
        context: { agent_name: config.name },
        metadata: { owner, custom_agent: config.name },
        ifExists: "do_nothing",
      });
      this.#logger.info({ event: "custom_agent", assistantId, agent: config.name }, "custom agent assistant created");
      return created;
    }
    if (current.description === description && current.name === config.name) return current;
    return this.#store.update(assistantId, { name: config.name, description }, scope);
  }

  /** Deletes the agent's assistant (a missing one is fine). */
  async remove(owner: string, name: string): Promise<void> {
    try {
      await this.#store.delete(this.assistantIdOf(owner, name), { owner });
    } catch (err) {
      if (!(RuntimeError.isInstance(err) && err.code === "ASSISTANT_NOT_FOUND")) throw err;
    }
  }
}
