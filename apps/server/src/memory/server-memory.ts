/**
 * The server's memory (DeerFlow §4): the manager over the memory store, the
 * update queue and extractor (when `memory.model_name` names a model), the
 * lead agent's memory middleware (`mode: middleware`) or memory tools (`mode:
 * tool`), the `/api/memory` routes, and `close()`, which flushes the queue
 * (`shutdown_flush_timeout_seconds`). Memory lives in the server's one
 * long-term store (`components.graphStore`: SQLite under the data dir, or the
 * checkpointer's PostgreSQL) under `["deerflow", "memory", ...]`, apart from
 * the store API's `["user-store", <user>]` items.
 */
import type { LeadAgentOptions } from "@deerflow/agent";
import {
  type MemoryBackend,
  MemoryManager,
  MemoryUpdateQueue,
  MemoryUpdater,
  StoreMemoryBackend,
  createMemoryMiddleware,
  createMemoryTools,
} from "@deerflow/memory";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { BaseStore } from "@langchain/langgraph";
import type { FastifyPluginAsync } from "fastify";
import type { AgentMiddleware } from "langchain";
import { memoryBackendConfigOf, type MemoryConfigSettings } from "../config/resolve-memory.js";
import type { Logger } from "../logger.js";
import type { ModelRegistry } from "../models/model-registry.js";
import { memoryRoutes } from "./memory-routes.js";

/** What the server's memory adds to the lead agent and the gateway. */
export interface ServerMemory {
  /** For `middleware.memory` of the lead agent (absent when memory is off or in tool mode without injection). */
  readonly middleware: AgentMiddleware | undefined;
  /** The memory tools (tool mode), else none. */
  readonly tools: readonly StructuredToolInterface[];
  /** The `/api/memory` routes (mount under `/api`). */
  readonly routes: FastifyPluginAsync;
  readonly manager: MemoryManager;
  /** The update queue; absent without an extraction model. */
  readonly queue: MemoryUpdateQueue | undefined;
  /** Flushes the queue (bounded by `shutdown_flush_timeout_seconds`); call before the store closes. Never throws. */
  close(): Promise<void>;
}

/** What {@link createServerMemory} needs. */
export interface ServerMemoryParts {
  readonly memory: MemoryConfigSettings;
  /** The server's long-term store (its lifetime is the server's). */
  readonly store: BaseStore;
  /** A plugin backend (`manager_class: "<module>:<export>"`); default: memory on {@link store}. */
  readonly backend?: MemoryBackend;
  readonly models: ModelRegistry;
  readonly logger: Logger;
}

/**
 * @param parts - `memory:` settings, the store, models, logger
 * @returns the memory parts
 */
export function createServerMemory(parts: ServerMemoryParts): ServerMemory {
  const { memory, logger, models } = parts;
  const backend = parts.backend ?? new StoreMemoryBackend({ store: parts.store });
  const storeKind = parts.backend === undefined ? parts.store.constructor.name : parts.backend.name;
  const manager = new MemoryManager({
    backend,
    settings: memory.settings,
    logger,
  });
  const active = memory.enabled && memory.managerClass !== "noop";
  const modelName = memory.modelName;
  let queue: MemoryUpdateQueue | undefined;
  if (active && memory.mode === "middleware" && modelName !== undefined) {
    const updater = new MemoryUpdater({ manager, model: () => models.get(modelName), logger });
    queue = new MemoryUpdateQueue({
      process: (item, signal) =>
        updater.update(
          { scope: item.scope, threadId: item.threadId, messages: item.messages, signals: item.signals },
          signal,
        ),
      debounceMs: memory.debounceMs,
      maxDepth: memory.queueMaxDepth,
      logger,
    });
  }
  const middleware =
    active && (memory.injectionEnabled || queue !== undefined)
      ? createMemoryMiddleware({
          manager,
          injection: memory.injectionEnabled,
          ...(queue === undefined ? {} : { queue }),
          logger,
        })
      : undefined;
  const tools = active && memory.mode === "tool" ? createMemoryTools({ manager }) : [];
  logger.info(
    {
      event: "memory",
      store: storeKind,
      enabled: active,
      mode: memory.mode,
      injection: memory.injectionEnabled,
      extraction: queue === undefined ? "off" : modelName,
    },
    active
      ? `memory: ${memory.mode} mode on ${storeKind}; extraction ${queue === undefined ? "off (no memory.model_name)" : `by model ${modelName}`}`
      : "memory: disabled",
  );

  const config = (): Record<string, unknown> => ({
    enabled: memory.enabled,
    mode: memory.mode,
    injection_enabled: memory.injectionEnabled,
    shutdown_flush_timeout_seconds: memory.shutdownFlushTimeoutMs / 1000,
    manager_class: memory.managerClass,
    backend_config: memoryBackendConfigOf(memory),
  });
  let closing: Promise<void> | undefined;
  return {
    middleware,
    tools,
    routes: memoryRoutes({ manager, config }),
    manager,
    queue,
    close() {
      closing ??= (queue?.close(memory.shutdownFlushTimeoutMs) ?? Promise.resolve()).catch((err: unknown) => {
        logger.warn({ err }, "memory queue flush failed at shutdown");
      });
      return closing;
    },
  };
}

/**
 * @param deps - the lead agent's options
 * @param memory - the server's memory
 * @returns the options with the memory middleware (`middleware.memory`) and, in tool mode, the memory tools
 */
export function withServerMemory(deps: LeadAgentOptions, memory: ServerMemory): LeadAgentOptions {
  return {
    ...deps,
    ...(memory.tools.length === 0 ? {} : { tools: [...(deps.tools ?? []), ...memory.tools] }),
    ...(memory.middleware === undefined ? {} : { middleware: { ...deps.middleware, memory: memory.middleware } }),
  };
}
