/**
 * Options and inputs of the {@link RunManager}.
 */
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { RunCoordinator } from "../coordination/run-coordinator.js";
import type { Logger } from "../logger.js";
import type { RunStore } from "../runs/run-store.js";
import type {
  CancelAction,
  DisconnectMode,
  Durability,
  MultitaskStrategy,
  RunCommand,
  RunConfig,
} from "../runs/types.js";
import type { StreamBridge } from "../stream/stream-bridge.js";
import type { GraphFactory } from "../worker/types.js";

/** Options of the {@link RunManager}. Everything but `graphs` has an in-process default. */
export interface RunManagerOptions {
  /**
   * Graphs by assistant id: a map, or a resolver returning undefined for unknown
   * ids (`ASSISTANT_NOT_FOUND`).
   */
  graphs: Readonly<Record<string, GraphFactory>> | ((assistantId: string) => GraphFactory | undefined);
  /** Durable runs and threads. Default: a new `MemoryRunStore`. */
  store?: RunStore;
  /** Event transport. Default: a new `MemoryStreamBridge`. */
  bridge?: StreamBridge;
  /** Ownership leases and cancel delivery. Default: a new `LocalRunCoordinator`. */
  coordinator?: RunCoordinator;
  /** Checkpointer handed to graph factories and used for rollback. */
  checkpointer?: BaseCheckpointSaver;
  /** Long-term store handed to graph factories. */
  graphStore?: BaseStore;
  logger?: Logger;
  /** How long finished runs are kept before they are deleted. Default 24 h; `Infinity` keeps them. */
  retentionMs?: number;
  /** How long a run's stream stays replayable after its end. Default 60 000 ms. */
  streamRetentionMs?: number;
  /**
   * Interval of the orphan-recovery and retention sweeps. Default 10 000 ms.
   * An orphaned run is recovered when its lease expires if the coordinator
   * implements `leaseOf`, else at the first sweep after: at worst the lease
   * plus this interval after its owner died.
   */
  sweepIntervalMs?: number;
  /** Longest pause between checks while a run waits for its turn on a busy thread. Default 500 ms. */
  maxStartPollMs?: number;
  /** Timeout applied to runs that do not set one. Default: none. */
  defaultTimeoutMs?: number;
  /**
   * Durability of runs that do not set one. Default: none (LangGraph's own, `async`). `exit` writes
   * one checkpoint per run instead of one per step, at the cost described on {@link Durability}.
   */
  defaultDurability?: Durability;
  /**
   * Longest wait for one call of the coordinator: taking a new run's lease in
   * `create`, delivering a cancel request, releasing a finished run's lease,
   * the sweep's checks. While Redis is down a call would otherwise wait as long
   * as the outage; past this bound it fails with `STORE_UNAVAILABLE` (the
   * gateway answers 503 with `Retry-After`; an unreleased lease expires by
   * itself). Default 5 000 ms.
   */
  coordinatorTimeoutMs?: number;
}

/** Input of {@link RunManager.create}. Field semantics follow the LangGraph Platform's `RunCreate`. */
export interface CreateRunInput {
  threadId: string;
  /** Recorded as the run's assistant; also the key `graphs` resolves unless `graphId` is given. */
  assistantId: string;
  /**
   * The key `graphs` resolves instead of `assistantId`: for an assistant that
   * is not itself a key of `graphs` (a user-created assistant of a graph), so
   * the run records the assistant's id and runs its graph.
   */
  graphId?: string;
  input?: unknown;
  command?: RunCommand;
  config?: RunConfig;
  context?: Record<string, unknown>;
  /** A mode or list of modes; default `["values"]`. Unknown modes fail with `INVALID_ARGUMENT`. */
  streamMode?: unknown;
  streamSubgraphs?: boolean;
  interruptBefore?: "*" | string[];
  interruptAfter?: "*" | string[];
  checkpointId?: string;
  metadata?: Record<string, unknown>;
  /** Default `reject`. */
  multitaskStrategy?: MultitaskStrategy;
  /** Default `continue`. The HTTP layer acts on it when a streaming client disconnects. */
  onDisconnect?: DisconnectMode;
  /** Default `create`: a missing thread is created (with `threadMetadata`). */
  ifNotExists?: "create" | "reject";
  threadMetadata?: Record<string, unknown>;
  /** Keys set in the thread's metadata when the run is admitted (in the admission's write). */
  threadMetadataUpdate?: Record<string, unknown>;
  timeoutMs?: number;
  /** When the run's checkpoints are written; default the manager's `defaultDurability`. Unknown values fail with `INVALID_ARGUMENT`. */
  durability?: Durability;
}

/** Options of {@link RunManager.cancel}. */
export interface CancelRunOptions {
  /** Default `interrupt`. */
  action?: CancelAction;
  /** Resolve only when the run has reached a terminal status. */
  wait?: boolean;
  /** Bounds the wait. */
  signal?: AbortSignal;
}

/**
 * What {@link RunManager.cancel} did.
 *
 * - `cancelled`: this instance stopped the run (or it was already cancelled).
 * - `requested`: the request was delivered to the instance executing the run.
 * - `recovered`: the run's instance was gone; the run was ended with status `error`.
 */
export type CancelOutcome = "cancelled" | "requested" | "recovered";
