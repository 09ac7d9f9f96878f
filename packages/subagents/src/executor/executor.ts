/**
 * Runs subagent tasks with a hard concurrency cap, a wall-clock timeout and
 * cancellation that reaches in-flight model and tool calls through one
 * AbortSignal (`parent ∪ timeout ∪ shutdown`).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { GraphRecursionError } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { SubagentError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import type { SubagentRegistry } from "../registry/registry.js";
import type {
  SubagentConfig,
  SubagentParentContext,
  SubagentProgress,
  SubagentResult,
  SubagentRunScope,
  SubagentTask,
  SubagentTerminalStatus,
} from "../types.js";
import { StepCollector } from "./messages.js";
import type { SubagentMiddleware } from "./middleware.js";
import { Semaphore, type Release } from "@deerflow/kernel";
import { TaskStore } from "./task-store.js";
import { selectSubagentTools } from "./tools.js";

/** Options of {@link SubagentExecutor}. */
export interface SubagentExecutorOptions {
  readonly registry: SubagentRegistry;
  /** Tasks running at once; the rest wait FIFO as `pending`. Default 3. */
  readonly maxConcurrent?: number;
  readonly logger?: Logger;
  /** Resolves a config's non-`inherit` model name. */
  readonly resolveModel?: (name: string) => BaseChatModel | undefined | Promise<BaseChatModel | undefined>;
  /** Where task statuses are kept; default a store with 0 ms retention. */
  readonly store?: TaskStore;
  /**
   * Middleware of every subagent's agent: a list shared by all tasks, or a factory called once
   * per task with its scope (thread, user, run, signal). Default none. A factory that throws
   * fails the task.
   */
  readonly middleware?: SubagentMiddleware;
}

/** Per-call options of {@link SubagentExecutor.execute}. */
export interface ExecuteOptions {
  /** Called in order: `started`, then one `message` per new AI/tool message. */
  readonly onProgress?: (event: SubagentProgress) => void;
}

/** Default of {@link SubagentExecutorOptions.maxConcurrent}. */
export const DEFAULT_MAX_CONCURRENT = 3;

/** Error text of a parent cancellation (DeerFlow's wording). */
export const CANCELLED_BY_USER = "Cancelled by user";

/**
 * Executes delegated tasks.
 *
 * @example
 * ```ts
 * const executor = new SubagentExecutor({ registry, maxConcurrent: 3, logger });
 * const result = await executor.execute(task, { model, tools, signal }, { onProgress });
 * ```
 */
export class SubagentExecutor {
  readonly #registry: SubagentRegistry;
  readonly #logger: Logger;
  readonly #resolveModel: SubagentExecutorOptions["resolveModel"];
  readonly #middleware: SubagentMiddleware;
  readonly #semaphore: Semaphore;
  readonly #shutdown = new AbortController();
  /** Finished-task bookkeeping; exposed for status queries. */
  readonly store: TaskStore;

  /**
   * @param options - registry, concurrency cap, logger, model resolver, middleware
   * @throws {@link SubagentError} `CONFIG_INVALID` when `maxConcurrent` is not an integer ≥ 1
   */
  constructor(options: SubagentExecutorOptions) {
    const max = options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
    if (!Number.isInteger(max) || max < 1) {
      throw new SubagentError("CONFIG_INVALID", `maxConcurrent must be an integer >= 1, got ${max}`, {
        details: { maxConcurrent: max },
      });
    }
    this.#registry = options.registry;
    this.#logger = options.logger ?? silentLogger;
    this.#resolveModel = options.resolveModel;
    this.#middleware = options.middleware ?? [];
    this.#semaphore = new Semaphore(max);
    this.store = options.store ?? new TaskStore();
  }

  /** Tasks running now. */
  get running(): number {
    return this.#semaphore.active;
  }

  /** Tasks waiting for a slot. */
  get pending(): number {
    return this.#semaphore.waiting;
  }

  /** Cancels every running and queued task; later calls to {@link execute} are cancelled at once. */
  shutdown(): void {
    this.#shutdown.abort(new Error("Executor shut down"));
  }

  /**
   * Runs one task to a terminal status. Never rejects: every failure is a result.
   * @param task - the delegated task
   * @param parent - the lead's model, tools and cancellation signal
   * @param options - progress callback
   * @returns exactly one {@link SubagentResult}
   */
  async execute(
    task: SubagentTask,
    parent: SubagentParentContext,
    options: ExecuteOptions = {},
  ): Promise<SubagentResult> {
    const fields = { traceId: task.traceId, taskId: task.id, subagent: task.subagentType };
    let config: SubagentConfig;
    try {
      config = this.#registry.require(task.subagentType);
    } catch (err) {
      this.#logger.warn(fields, "unknown subagent type");
      return result(task.id, "failed", { error: errorText(err) });
    }
    if (this.store.isActive(task.id)) {
      this.#logger.warn(fields, "duplicate task id");
      return result(task.id, "failed", { error: `Task ${task.id} is already running` });
    }
    this.store.add(task.id);
    const waitSignal = combine([parent.signal, this.#shutdown.signal]);
    this.#logger.debug(fields, "subagent task queued");
    let release: Release;
    try {
      release = await this.#semaphore.acquire(waitSignal);
    } catch {
      this.#logger.info(fields, "subagent task cancelled while pending");
      return this.#deliver(task.id, result(task.id, "cancelled", { error: this.#cancelText(waitSignal) }), fields);
    }
    try {
      return this.#deliver(task.id, await this.#run(task, config, parent, options, fields), fields);
    } finally {
      release();
    }
  }

  async #run(
    task: SubagentTask,
    config: SubagentConfig,
    parent: SubagentParentContext,
    options: ExecuteOptions,
    fields: Record<string, unknown>,
  ): Promise<SubagentResult> {
    this.store.markRunning(task.id);
    const steps = new StepCollector();
    const emit = (event: SubagentProgress): void => {
      try {
        options.onProgress?.(event);
      } catch (err) {
        this.#logger.warn({ ...fields, err: errorText(err) }, "progress callback threw");
      }
    };
    let model: BaseChatModel;
    let modelName: string | null;
    try {
      ({ model, modelName } = await this.#model(config, parent));
    } catch (err) {
      this.#logger.error({ ...fields, err: errorText(err) }, "subagent model unavailable");
      return result(task.id, "failed", { error: errorText(err) });
    }
    const outcome = (status: SubagentTerminalStatus, extra: { result?: string; error?: string }): SubagentResult =>
      result(task.id, status, { ...extra, usage: steps.usage, modelName, messages: [...steps.messages] });

    const timeout = new AbortController();
    const timeoutReason = new Error(`Execution timed out after ${formatSeconds(config.timeoutMs)} seconds`);
    const timer = setTimeout(() => timeout.abort(timeoutReason), config.timeoutMs);
    const signal = combine([parent.signal, timeout.signal, this.#shutdown.signal]);
    const recursionLimit = Math.min(task.maxTurns ?? config.maxTurns, config.maxTurns);
    this.#logger.info({ ...fields, modelName, recursionLimit }, "subagent task started");
    emit({ kind: "started", taskId: task.id, modelName });

    let failure: unknown;
    try {
      if (signal.aborted) throw signal.reason;
      const scope = parent.scope ?? {};
      const middleware =
        typeof this.#middleware === "function"
          ? await this.#middleware({ task, subagent: config, ...scope, signal })
          : this.#middleware;
      const agent = createAgent({
        model,
        tools: selectSubagentTools(config, parent.tools),
        middleware: [...middleware],
        ...(config.systemPrompt === undefined ? {} : { systemPrompt: config.systemPrompt }),
      });
      const stream = await agent.stream(
        { messages: [new HumanMessage(task.prompt)] },
        {
          streamMode: "values",
          recursionLimit,
          signal,
          ...(parent.scope === undefined ? {} : { configurable: runConfigurable(parent.scope) }),
        },
      );
      for await (const chunk of stream) {
        // Cooperative check as well: a tool that ignores the signal must not extend the run.
        if (signal.aborted) break;
        for (const message of steps.capture((chunk as { messages?: BaseMessage[] }).messages ?? [])) {
          emit({ kind: "message", taskId: task.id, message, index: steps.messages.length, usage: steps.usage });
        }
      }
    } catch (err) {
      failure = err;
    } finally {
      clearTimeout(timer);
    }

    if (signal.aborted) {
      if (signal.reason === timeoutReason) {
        this.#logger.warn({ ...fields, timeoutMs: config.timeoutMs }, "subagent task timed out");
        return outcome("timed_out", { error: timeoutReason.message });
      }
      this.#logger.info(fields, "subagent task cancelled");
      return outcome("cancelled", { error: this.#cancelText(signal) });
    }
    if (failure === undefined) {
      // DeerFlow: the model-failure answer of the error-handling middleware fails the task.
      if (steps.lastAiIsErrorFallback()) {
        this.#logger.warn(fields, "subagent model failed after retries");
        return outcome("failed", { error: steps.lastAiText() ?? "The model call failed" });
      }
      return outcome("completed", { result: steps.lastAiText() ?? steps.lastText() ?? "No response generated" });
    }
    if (
      failure instanceof GraphRecursionError ||
      (failure instanceof Error && failure.name === "GraphRecursionError")
    ) {
      const partial = steps.lastAiText();
      this.#logger.warn({ ...fields, recursionLimit, partial: partial !== undefined }, "subagent reached max turns");
      return partial === undefined
        ? outcome("failed", { error: `Reached max_turns=${recursionLimit}` })
        : outcome("completed", { result: partial });
    }
    this.#logger.error({ ...fields, err: errorText(failure) }, "subagent task failed");
    return outcome("failed", { error: errorText(failure) });
  }

  async #model(
    config: SubagentConfig,
    parent: SubagentParentContext,
  ): Promise<{ model: BaseChatModel; modelName: string | null }> {
    if (config.model === "inherit") return { model: parent.model, modelName: modelNameOf(parent.model) };
    const model = await this.#resolveModel?.(config.model);
    if (model === undefined) {
      throw new SubagentError(
        "MODEL_UNAVAILABLE",
        `Model '${config.model}' of subagent '${config.name}' is not available`,
        {
          details: { model: config.model, subagent: config.name },
        },
      );
    }
    return { model, modelName: config.model };
  }

  #cancelText(signal: AbortSignal): string {
    return signal.reason === this.#shutdown.signal.reason && this.#shutdown.signal.aborted
      ? "Executor shut down"
      : CANCELLED_BY_USER;
  }

  #deliver(id: string, value: SubagentResult, fields: Record<string, unknown>): SubagentResult {
    const stored = this.store.finish(id, value);
    this.store.delivered(id);
    this.#logger.info({ ...fields, status: stored.status, usage: stored.usage }, "subagent task finished");
    return stored;
  }
}

function runConfigurable(scope: SubagentRunScope): Record<string, string> {
  const configurable: Record<string, string> = {};
  if (scope.threadId !== undefined) configurable["thread_id"] = scope.threadId;
  if (scope.userId !== undefined) configurable["user_id"] = scope.userId;
  if (scope.userRole !== undefined) configurable["user_role"] = scope.userRole;
  if (scope.runId !== undefined) configurable["run_id"] = scope.runId;
  return configurable;
}

function combine(signals: ReadonlyArray<AbortSignal | undefined>): AbortSignal {
  return AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
}

function result(
  taskId: string,
  status: SubagentTerminalStatus,
  extra: {
    result?: string;
    error?: string;
    usage?: SubagentResult["usage"];
    modelName?: string | null;
    messages?: readonly BaseMessage[];
  },
): SubagentResult {
  return {
    taskId,
    status,
    ...(extra.result === undefined ? {} : { result: extra.result }),
    ...(extra.error === undefined ? {} : { error: extra.error }),
    usage: extra.usage ?? null,
    modelName: extra.modelName ?? null,
    messages: extra.messages ?? [],
  };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 10) / 100);
}

function modelNameOf(model: BaseChatModel): string | null {
  const m = model as unknown as { model?: unknown; modelName?: unknown };
  if (typeof m.model === "string" && m.model !== "") return m.model;
  if (typeof m.modelName === "string" && m.modelName !== "") return m.modelName;
  return null;
}
