/**
 * Thread state through a compiled LangGraph graph, in the LangGraph API's
 * `ThreadState` wire shape.
 *
 * A thread's state can only be read with the graph that wrote it (the graph
 * knows which channels are state and which are machinery), so the routes find
 * the thread's assistant in its metadata (`assistant_id`, else `graph_id`), set
 * when the thread's first run is created.
 */
import { RuntimeError, checkpointRefOf, serializeState, serializeValue, type CheckpointRef } from "@deerflow/runtime";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { AssistantRegistry, RegisteredAssistant } from "./assistant-registry.js";

/** A `RunnableConfig` as far as thread state needs it. */
export interface StateConfig {
  configurable?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The part of a LangGraph `StateSnapshot` the routes read. */
export interface StateSnapshotLike {
  readonly values: unknown;
  readonly next: readonly string[];
  readonly config: unknown;
  readonly metadata?: unknown;
  readonly createdAt?: string | undefined;
  readonly parentConfig?: unknown;
  readonly tasks: ReadonlyArray<{
    readonly id: string;
    readonly name: string;
    readonly error?: unknown;
    readonly interrupts: readonly unknown[];
    readonly state?: unknown;
    readonly path?: unknown;
    readonly result?: unknown;
  }>;
}

/**
 * The methods of a compiled LangGraph graph (`StateGraph(...).compile({ checkpointer })`,
 * `createAgent(...)`) used for thread state. Any compiled graph satisfies it.
 */
export interface ThreadStateGraph {
  getState(config: StateConfig, options?: { subgraphs?: boolean }): Promise<StateSnapshotLike>;
  updateState(config: StateConfig, values: unknown, asNode?: string): Promise<unknown>;
  getStateHistory(
    config: StateConfig,
    options?: { limit?: number; before?: StateConfig; filter?: Record<string, unknown> },
  ): AsyncIterable<StateSnapshotLike>;
  /** For `GET /assistants/:id/graph` (optional). */
  getGraphAsync?(config: StateConfig): Promise<{ toJSON(): unknown }>;
}

/** One task of a `ThreadState`. */
export interface WireThreadTask {
  id: string;
  name: string;
  error: string | null;
  interrupts: unknown[];
  path: unknown[];
  checkpoint: CheckpointRef | null;
  state: unknown;
  result: unknown;
}

/** `ThreadState` as the LangGraph API returns it (state, history). */
export interface WireThreadState {
  values: unknown;
  next: string[];
  tasks: WireThreadTask[];
  metadata: Record<string, unknown>;
  created_at: string | null;
  checkpoint: CheckpointRef | null;
  parent_checkpoint: CheckpointRef | null;
  /** Every pending interrupt of the tasks, flattened. */
  interrupts: unknown[];
}

/** The state of a thread that never ran a graph. */
export function emptyThreadState(): WireThreadState {
  return {
    values: {},
    next: [],
    tasks: [],
    metadata: {},
    created_at: null,
    checkpoint: null,
    parent_checkpoint: null,
    interrupts: [],
  };
}

function errorText(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  return JSON.stringify(serializeValue(error));
}

function toWireTask(task: StateSnapshotLike["tasks"][number]): WireThreadTask {
  const interrupts = serializeValue(task.interrupts ?? []);
  return {
    id: task.id,
    name: task.name,
    error: errorText(task.error),
    interrupts: Array.isArray(interrupts) ? interrupts : [],
    path: Array.isArray(task.path) ? (serializeValue(task.path) as unknown[]) : [],
    // A subgraph task carries the subgraph's config (or snapshot); clients get the checkpoint it names.
    checkpoint: checkpointRefOf((task.state as { config?: unknown } | undefined)?.config ?? task.state),
    state: null,
    result: task.result === undefined ? null : serializeValue(task.result),
  };
}

/** Converts a LangGraph `StateSnapshot` to the wire `ThreadState`. */
export function toWireThreadState(snapshot: StateSnapshotLike): WireThreadState {
  const tasks = snapshot.tasks.map(toWireTask);
  const metadata = serializeValue(snapshot.metadata ?? {});
  return {
    values: serializeState(snapshot.values ?? {}),
    next: [...snapshot.next],
    tasks,
    metadata:
      typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)
        ? (metadata as Record<string, unknown>)
        : {},
    created_at: snapshot.createdAt ?? null,
    checkpoint: checkpointRefOf(snapshot.config),
    parent_checkpoint: checkpointRefOf(snapshot.parentConfig),
    interrupts: tasks.flatMap((t) => t.interrupts),
  };
}

/** Reads and writes thread state with the graph of the thread's assistant. */
export class ThreadStateAccess {
  readonly #graphs = new Map<string, ThreadStateGraph>();

  constructor(
    private readonly assistants: AssistantRegistry,
    private readonly checkpointer: BaseCheckpointSaver,
  ) {}

  /** The assistant a thread's metadata names (its last run's), or undefined for a thread that never ran. */
  assistantOf(metadata: Readonly<Record<string, unknown>>): RegisteredAssistant | undefined {
    for (const key of ["assistant_id", "graph_id"]) {
      const id = metadata[key];
      if (typeof id === "string") {
        const assistant = this.assistants.get(id);
        if (assistant !== undefined) return assistant;
      }
    }
    return undefined;
  }

  /** The assistant's graph compiled with the shared checkpointer (compiled once). */
  graphOf(assistant: RegisteredAssistant): ThreadStateGraph {
    let graph = this.#graphs.get(assistant.assistantId);
    if (graph === undefined) {
      graph = assistant.stateGraph(this.checkpointer);
      this.#graphs.set(assistant.assistantId, graph);
    }
    return graph;
  }

  /** True when the thread has a checkpoint with this id (root namespace). */
  async hasCheckpoint(threadId: string, checkpointId: string): Promise<boolean> {
    const tuple = await this.checkpointer.getTuple({
      configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId },
    });
    return tuple !== undefined && tuple.checkpoint.id === checkpointId;
  }

  /**
   * The thread's state at its head, or at `checkpoint`: the empty state for a
   * thread that never ran, null when the named checkpoint does not exist.
   */
  async state(
    threadId: string,
    metadata: Readonly<Record<string, unknown>>,
    options: { checkpoint?: CheckpointSelector; subgraphs?: boolean } = {},
  ): Promise<WireThreadState | null> {
    const assistant = this.assistantOf(metadata);
    const checkpointId = options.checkpoint?.checkpoint_id;
    if (assistant === undefined) return checkpointId === undefined ? emptyThreadState() : null;
    if (checkpointId !== undefined && !(await this.hasCheckpoint(threadId, checkpointId))) return null;
    const snapshot = await this.graphOf(assistant).getState(
      configOf(threadId, options.checkpoint),
      options.subgraphs === true ? { subgraphs: true } : {},
    );
    // No checkpoint yet (a thread created with metadata.graph_id): LangGraph answers a snapshot of nothing.
    if (snapshot.metadata === undefined && snapshot.createdAt === undefined) return emptyThreadState();
    return toWireThreadState(snapshot);
  }

  /** Thread history, newest first; `[]` for a thread that never ran. */
  async history(
    threadId: string,
    metadata: Readonly<Record<string, unknown>>,
    options: { limit: number; before?: string; filter?: Record<string, unknown>; checkpoint?: CheckpointSelector },
  ): Promise<WireThreadState[]> {
    const assistant = this.assistantOf(metadata);
    if (assistant === undefined) return [];
    const out: WireThreadState[] = [];
    const iterable = this.graphOf(assistant).getStateHistory(configOf(threadId, options.checkpoint), {
      limit: options.limit,
      ...(options.before === undefined
        ? {}
        : { before: { configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: options.before } } }),
      ...(options.filter === undefined ? {} : { filter: options.filter }),
    });
    for await (const snapshot of iterable) {
      out.push(toWireThreadState(snapshot));
      if (out.length >= options.limit) break;
    }
    return out;
  }

  /**
   * Writes `values` as a new checkpoint (as if `asNode` had returned them).
   *
   * @returns the new checkpoint.
   * @throws RuntimeError `INVALID_ARGUMENT` when the thread has no assistant.
   */
  async update(
    threadId: string,
    metadata: Readonly<Record<string, unknown>>,
    values: unknown,
    options: { asNode?: string; checkpoint?: CheckpointSelector },
  ): Promise<CheckpointRef | null> {
    const assistant = this.assistantOf(metadata);
    if (assistant === undefined) {
      throw new RuntimeError(
        "INVALID_ARGUMENT",
        `Thread ${threadId} has no graph yet: run it once, or create it with metadata.graph_id.`,
      );
    }
    const config = await this.graphOf(assistant).updateState(
      configOf(threadId, options.checkpoint),
      values,
      options.asNode,
    );
    return checkpointRefOf(config);
  }
}

/** A checkpoint named by a client (`checkpoint` objects and `checkpoint_id`s). */
export interface CheckpointSelector {
  checkpoint_id?: string;
  checkpoint_ns?: string;
  checkpoint_map?: Record<string, unknown>;
}

function configOf(threadId: string, checkpoint: CheckpointSelector | undefined): StateConfig {
  const configurable: Record<string, unknown> = { thread_id: threadId, checkpoint_ns: checkpoint?.checkpoint_ns ?? "" };
  if (checkpoint?.checkpoint_id !== undefined) configurable["checkpoint_id"] = checkpoint.checkpoint_id;
  if (checkpoint?.checkpoint_map !== undefined) configurable["checkpoint_map"] = checkpoint.checkpoint_map;
  return { configurable };
}
