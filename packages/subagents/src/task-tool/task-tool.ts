/**
 * The lead's `task` tool: validates the subagent type, runs the task through a
 * {@link TaskExecutor}, streams `task_*` custom events while it runs, and
 * returns a ToolMessage with DeerFlow's result text and `subagent_*` kwargs.
 */
import { ToolMessage } from "@langchain/core/messages";
import { tool, type ToolRunnableConfig } from "@langchain/core/tools";
import { silentLogger, type Logger } from "../logger.js";
import type {
  SubagentConfig,
  SubagentParentContext,
  SubagentProgress,
  SubagentResult,
  SubagentTask,
} from "../types.js";
import { serializeMessage, type TaskErrorEvent, type TaskEvent } from "./events.js";
import { buildTaskResultKwargs, formatTaskResultContent, toWireUsage, type TaskOutcome } from "./result-format.js";
import { buildTaskToolSchema, TASK_TOOL_DESCRIPTION, TASK_TOOL_NAME, type TaskToolInput } from "./task-tool-schema.js";

/** What the tool needs from `SubagentExecutor`. */
export interface TaskExecutor {
  execute(
    task: SubagentTask,
    parent: SubagentParentContext,
    options?: { onProgress?: (p: SubagentProgress) => void },
  ): Promise<SubagentResult>;
}

/** What the tool needs from `SubagentRegistry` (`get` may return `undefined` or throw for unknown names). */
export interface TaskRegistry {
  get(name: string): SubagentConfig | undefined;
  list(): readonly SubagentConfig[];
}

/** Options of {@link createTaskTool}. */
export interface TaskToolOptions {
  readonly executor: TaskExecutor;
  readonly registry: TaskRegistry;
  /** The lead's model and tools for this run; its `signal` defaults to the tool call's signal. */
  readonly getParent: (config: ToolRunnableConfig | undefined) => SubagentParentContext;
  /** Trace id of a task; defaults to the tool-call id. */
  readonly getTraceId?: (config: ToolRunnableConfig | undefined, taskId: string) => string;
  readonly logger?: Logger;
}

/** The `task` tool instance type. */
export type TaskTool = ReturnType<typeof createTaskTool>;

type Writer = (chunk: unknown) => void;

function writerOf(config: ToolRunnableConfig | undefined): Writer | undefined {
  const w: unknown = (config as { writer?: unknown } | undefined)?.writer;
  return typeof w === "function" ? (w as Writer) : undefined;
}

function toInput(raw: unknown): TaskToolInput {
  const r = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const text = (key: string): string => (typeof r[key] === "string" ? r[key] : "");
  const turns = r["max_turns"];
  return {
    description: text("description"),
    prompt: text("prompt"),
    subagent_type: text("subagent_type"),
    max_turns: typeof turns === "number" && Number.isInteger(turns) && turns >= 1 ? turns : null,
  };
}

function lookup(registry: TaskRegistry, name: string): SubagentConfig | undefined {
  try {
    return registry.get(name);
  } catch {
    return undefined;
  }
}

const TERMINAL_EVENT = { failed: "task_failed", timed_out: "task_timed_out", cancelled: "task_cancelled" } as const;

function resultMessage(outcome: TaskOutcome, toolCallId: string): ToolMessage {
  return new ToolMessage({
    content: formatTaskResultContent(outcome),
    tool_call_id: toolCallId,
    name: TASK_TOOL_NAME,
    additional_kwargs: { ...buildTaskResultKwargs(outcome) },
  });
}

/**
 * Creates the `task` tool. Give it to the lead only: subagents never get
 * `task` (the executor removes it), which is the recursion guard.
 *
 * Events (custom stream; `task_id` = tool-call id): `task_started`, one
 * `task_running` per new subagent message, then exactly one of
 * `task_completed` / `task_failed` / `task_timed_out` / `task_cancelled`.
 * An unknown `subagent_type` returns a failed result without events.
 *
 * @param options - executor, registry, parent context resolution, logger
 * @returns the LangChain tool; it resolves to a `ToolMessage` (name `task`)
 * @example
 * ```ts
 * const task = createTaskTool({ executor, registry, getParent: () => ({ model, tools }) });
 * const lead = createAgent({ model, tools: [...tools, task], middleware: [createSubagentLimitMiddleware()] });
 * for await (const [mode, chunk] of await lead.stream(input, { streamMode: ["custom", "updates"] })) { ... }
 * ```
 */
export function createTaskTool(options: TaskToolOptions) {
  const { executor, registry } = options;
  const logger = options.logger ?? silentLogger;
  const names = registry.list().map((c) => c.name);
  return tool(
    async (raw: unknown, config?: ToolRunnableConfig): Promise<ToolMessage> => {
      const input = toInput(raw);
      const taskId = config?.toolCall?.id ?? "";
      const writer = writerOf(config);
      const emit = (event: TaskEvent): void => {
        try {
          writer?.(event);
        } catch (err) {
          logger.warn(
            { taskId, type: event.type, err: err instanceof Error ? err.message : String(err) },
            "task event could not be written",
          );
        }
      };

      if (lookup(registry, input.subagent_type) === undefined) {
        const available = registry
          .list()
          .map((c) => c.name)
          .join(", ");
        const error = `Unknown subagent type '${input.subagent_type}'. Available: ${available}`;
        return resultMessage({ status: "failed", error, usage: null, modelName: null }, taskId);
      }

      const parent = options.getParent(config);
      const signal = parent.signal ?? config?.signal;
      const task: SubagentTask = {
        id: taskId,
        subagentType: input.subagent_type,
        description: input.description,
        prompt: input.prompt,
        traceId: options.getTraceId?.(config, taskId) ?? taskId,
        ...(input.max_turns !== null && input.max_turns !== undefined ? { maxTurns: input.max_turns } : {}),
      };

      let started = false;
      let modelName: string | null = null;
      let lastIndex = 0;
      const start = (name: string | null): void => {
        if (started) return;
        started = true;
        modelName = name;
        emit({ type: "task_started", task_id: taskId, description: input.description, model_name: name });
      };
      const onProgress = (p: SubagentProgress): void => {
        if (p.kind === "started") return start(p.modelName);
        start(null);
        if (p.index <= lastIndex) return; // already reported (dedup by index)
        lastIndex = p.index;
        emit({
          type: "task_running",
          task_id: taskId,
          message: serializeMessage(p.message),
          message_index: p.index,
          total_messages: p.index,
          usage: toWireUsage(p.usage),
          model_name: modelName,
        });
      };

      let outcome: TaskOutcome;
      try {
        const result = await executor.execute(task, signal !== undefined ? { ...parent, signal } : parent, {
          onProgress,
        });
        outcome = result;
      } catch (err) {
        // The executor reports failures as results; a throw is a bug or an infrastructure error.
        const detail = err instanceof Error ? `${err.name}: ${err.message}` : `Error: ${String(err)}`;
        logger.error({ taskId, traceId: task.traceId, err: detail }, "subagent executor threw");
        outcome = { status: "failed", error: detail, usage: null, modelName };
      }

      start(outcome.modelName);
      const usage = toWireUsage(outcome.usage);
      const finalModel = outcome.modelName ?? modelName;
      if (outcome.status === "completed") {
        emit({ type: "task_completed", task_id: taskId, result: outcome.result ?? "", usage, model_name: finalModel });
      } else {
        const kwargs = buildTaskResultKwargs(outcome);
        const event: TaskErrorEvent = {
          type: TERMINAL_EVENT[outcome.status],
          task_id: taskId,
          error: outcome.error ?? kwargs.subagent_error ?? "",
          usage,
          model_name: finalModel,
        };
        emit(event);
      }
      return resultMessage({ ...outcome, modelName: finalModel }, taskId);
    },
    { name: TASK_TOOL_NAME, description: TASK_TOOL_DESCRIPTION, schema: buildTaskToolSchema(names) },
  );
}
