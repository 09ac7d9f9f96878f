/**
 * The assistants the LangGraph-compatible routes serve: one fixed list, built
 * at startup, that feeds both the HTTP layer (`/assistants/...`, thread state)
 * and the `RunManager` (its `graphs` resolver), so the two always agree on ids.
 */
import type { GraphFactory } from "@deerflow/runtime";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { GatewayError } from "../errors.js";
import type { ThreadStateGraph } from "./state-graph.js";

/** The JSON part of a `RunnableConfig` an assistant contributes to its runs (LangGraph wire names). */
export interface AssistantConfig {
  readonly tags?: readonly string[];
  readonly recursion_limit?: number;
  readonly configurable?: Readonly<Record<string, unknown>>;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** One assistant: a graph plus the defaults its runs start from. */
export interface AssistantDefinition {
  /** Stable id (UUIDs are what LangGraph clients expect, any `^[A-Za-z0-9_.:-]{1,128}$` works). */
  readonly assistantId: string;
  /** The graph's id; clients may name the assistant by it (`client.runs.stream(tid, "agent")`). */
  readonly graphId: string;
  readonly name?: string;
  readonly description?: string;
  /** Merged under each run's `config` (the run's values win; `configurable` and `metadata` merge by key). */
  readonly config?: AssistantConfig;
  /** Merged under each run's `context` (the run's keys win). */
  readonly context?: Readonly<Record<string, unknown>>;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** What the `RunManager` executes for runs of this assistant. */
  readonly graph: GraphFactory;
  /**
   * The same graph compiled with `checkpointer`, used to read and write thread
   * state (`getState`, `updateState`, `getStateHistory`). Called once, lazily.
   */
  readonly stateGraph: (checkpointer: BaseCheckpointSaver) => ThreadStateGraph;
}

/** An assistant as registered (with its registration time). */
export interface RegisteredAssistant extends AssistantDefinition {
  /** ISO-8601 time of registration, reported as `created_at` / `updated_at`. */
  readonly createdAt: string;
}

/** Filter of {@link AssistantRegistry.search}. */
export interface AssistantSearchQuery {
  readonly graphId?: string;
  /** Case-insensitive substring of the name. */
  readonly name?: string;
  /** Every key must be present with an equal (JSON-equal) value. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly limit?: number;
  readonly offset?: number;
}

const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A fixed set of assistants, looked up by assistant id or graph id (a graph id
 * names the first assistant registered for that graph, like LangGraph's system
 * assistants).
 *
 * @example
 * ```ts
 * const checkpointer = new MemorySaver();
 * const build = (saver?: BaseCheckpointSaver) => workflow.compile({ checkpointer: saver });
 * const assistants = new AssistantRegistry([
 *   { assistantId: "6f9c…", graphId: "agent", graph: ({ checkpointer }) => build(checkpointer), stateGraph: build },
 * ]);
 * const manager = new RunManager({ graphs: assistants.graphs, checkpointer });
 * const app = await createGateway({ routes: [langgraphRoutes({ manager, checkpointer, assistants })] });
 * ```
 */
export class AssistantRegistry {
  readonly #byId = new Map<string, RegisteredAssistant>();
  readonly #byGraph = new Map<string, RegisteredAssistant>();

  /**
   * @param definitions - the assistants; ids must be unique and must not collide with another assistant's graph id.
   * @throws GatewayError `CONFIG_INVALID` for a malformed or duplicate id, or a missing graph function.
   */
  constructor(definitions: readonly AssistantDefinition[]) {
    const createdAt = new Date().toISOString();
    for (const definition of definitions) {
      const { assistantId, graphId } = definition;
      for (const [label, value] of [
        ["assistantId", assistantId],
        ["graphId", graphId],
      ] as const) {
        if (typeof value !== "string" || !ID_PATTERN.test(value)) {
          throw new GatewayError(
            "CONFIG_INVALID",
            `Assistant ${label} ${JSON.stringify(value)} must match ${ID_PATTERN.source}`,
          );
        }
      }
      if (typeof definition.graph !== "function" || typeof definition.stateGraph !== "function") {
        throw new GatewayError("CONFIG_INVALID", `Assistant ${assistantId} needs graph and stateGraph functions`);
      }
      if (this.#byId.has(assistantId))
        throw new GatewayError("CONFIG_INVALID", `Duplicate assistant id ${assistantId}`);
      this.#byId.set(assistantId, { ...definition, createdAt });
    }
    for (const assistant of this.#byId.values()) {
      const other = this.#byId.get(assistant.graphId);
      if (other !== undefined && other !== assistant) {
        throw new GatewayError("CONFIG_INVALID", `Graph id ${assistant.graphId} is also the id of another assistant`);
      }
      if (!this.#byGraph.has(assistant.graphId)) this.#byGraph.set(assistant.graphId, assistant);
    }
  }

  /** Every assistant, in registration order. */
  list(): RegisteredAssistant[] {
    return [...this.#byId.values()];
  }

  /** The assistant with this assistant id, else the first one of this graph id. */
  get(idOrGraphId: string): RegisteredAssistant | undefined {
    return this.#byId.get(idOrGraphId) ?? this.#byGraph.get(idOrGraphId);
  }

  /** Assistants matching `query`, in registration order, paginated. */
  search(query: AssistantSearchQuery = {}): RegisteredAssistant[] {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 10;
    return this.filter(query).slice(offset, offset + limit);
  }

  /** How many assistants match `query` (pagination ignored). */
  count(query: AssistantSearchQuery = {}): number {
    return this.filter(query).length;
  }

  /**
   * The `RunManager`'s `graphs` option: resolves an assistant id or graph id to
   * its graph factory. Runs created through the routes always carry the assistant id.
   */
  readonly graphs = (idOrGraphId: string): GraphFactory | undefined => this.get(idOrGraphId)?.graph;

  private filter(query: AssistantSearchQuery): RegisteredAssistant[] {
    const name = query.name?.toLowerCase();
    return this.list().filter((a) => {
      if (query.graphId !== undefined && a.graphId !== query.graphId) return false;
      if (name !== undefined && !(a.name ?? a.graphId).toLowerCase().includes(name)) return false;
      for (const [key, value] of Object.entries(query.metadata ?? {})) {
        if (!Object.hasOwn(a.metadata ?? {}, key) || !jsonEqual(a.metadata?.[key], value)) return false;
      }
      return true;
    });
  }
}
