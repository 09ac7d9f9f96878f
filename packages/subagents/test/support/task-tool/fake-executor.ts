/**
 * A scripted stand-in for `SubagentExecutor` (only `execute`), for tests of
 * the `task` tool and of lead agents: each task replays a script of progress
 * messages and resolves to a scripted terminal result.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type {
  SubagentParentContext,
  SubagentProgress,
  SubagentResult,
  SubagentTask,
  SubagentTerminalStatus,
  TokenUsage,
} from "../../../src/types.js";
import type { TaskExecutor } from "../../../src/task-tool/task-tool.js";

/** What one scripted task does. */
export interface FakeTaskScript {
  readonly modelName?: string | null;
  /** Emitted in order as `message` progress (1-based), each with the usage given alongside. */
  readonly messages?: readonly BaseMessage[];
  readonly usage?: TokenUsage | null;
  readonly status?: SubagentTerminalStatus;
  readonly result?: string;
  readonly error?: string;
  /** Make `execute` reject with this error instead of resolving. */
  readonly throws?: Error;
}

/** A {@link TaskExecutor} that plays {@link FakeTaskScript}s and records every call. */
export class FakeSubagentExecutor implements TaskExecutor {
  /** Every task received, in order, with its parent context. */
  readonly calls: { task: SubagentTask; parent: SubagentParentContext }[] = [];

  /**
   * @param script - one script for every task, or a function choosing one per task
   */
  constructor(private readonly script: FakeTaskScript | ((task: SubagentTask) => FakeTaskScript) = {}) {}

  /**
   * Replays the script for `task`.
   *
   * @param task - the task
   * @param parent - the lead's context (recorded only)
   * @param options - receives the scripted progress
   * @returns the scripted result
   * @throws the script's `throws` error
   */
  async execute(
    task: SubagentTask,
    parent: SubagentParentContext,
    options: { onProgress?: (p: SubagentProgress) => void } = {},
  ): Promise<SubagentResult> {
    this.calls.push({ task, parent });
    const s = typeof this.script === "function" ? this.script(task) : this.script;
    const modelName = s.modelName === undefined ? "fake-model" : s.modelName;
    const usage = s.usage ?? null;
    await Promise.resolve();
    options.onProgress?.({ kind: "started", taskId: task.id, modelName });
    const messages = s.messages ?? [];
    messages.forEach((message, i) =>
      options.onProgress?.({ kind: "message", taskId: task.id, message, index: i + 1, usage }),
    );
    if (s.throws) throw s.throws;
    const status = s.status ?? "completed";
    return {
      taskId: task.id,
      status,
      ...(s.result !== undefined
        ? { result: s.result }
        : status === "completed"
          ? { result: `done: ${task.description}` }
          : {}),
      ...(s.error !== undefined ? { error: s.error } : {}),
      usage,
      modelName,
      messages,
    };
  }
}
