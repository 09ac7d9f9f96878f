/**
 * Custom stream events of the `task` tool (LangGraph `streamMode: "custom"`),
 * with DeerFlow's payload fields (snake_case on the wire). `task_id` is the
 * lead's tool-call id.
 */
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { WireTokenUsage } from "./result-format.js";

/** `task_started`: the subagent began. */
export interface TaskStartedEvent {
  readonly type: "task_started";
  readonly task_id: string;
  readonly description: string;
  readonly model_name: string | null;
}

/** `task_running`: one per newly captured AI or tool message of the subagent. */
export interface TaskRunningEvent {
  readonly type: "task_running";
  readonly task_id: string;
  readonly message: SerializedMessage;
  /** 1-based index of `message` among the task's captured messages. */
  readonly message_index: number;
  readonly total_messages: number;
  readonly usage: WireTokenUsage | null;
  readonly model_name: string | null;
}

/** `task_completed`: the terminal event of a successful task. */
export interface TaskCompletedEvent {
  readonly type: "task_completed";
  readonly task_id: string;
  readonly result: string;
  readonly usage: WireTokenUsage | null;
  readonly model_name: string | null;
}

/** `task_failed` / `task_timed_out` / `task_cancelled`: the terminal event of an unsuccessful task. */
export interface TaskErrorEvent {
  readonly type: "task_failed" | "task_timed_out" | "task_cancelled";
  readonly task_id: string;
  readonly error: string;
  readonly usage: WireTokenUsage | null;
  readonly model_name: string | null;
}

/** Any event the `task` tool writes to the custom stream. */
export type TaskEvent = TaskStartedEvent | TaskRunningEvent | TaskCompletedEvent | TaskErrorEvent;

/** Every `type` a {@link TaskEvent} can have. */
export const TASK_EVENT_TYPES = [
  "task_started",
  "task_running",
  "task_completed",
  "task_failed",
  "task_timed_out",
  "task_cancelled",
] as const;

/** A message as a plain JSON dict (the shape of Python's `message.model_dump()`). */
export interface SerializedMessage {
  readonly type: string;
  readonly id: string | null;
  readonly name: string | null;
  readonly content: unknown;
  readonly additional_kwargs: Record<string, unknown>;
  readonly response_metadata: Record<string, unknown>;
  readonly tool_calls?: readonly {
    name: string;
    args: Record<string, unknown>;
    id: string | null;
    type: "tool_call";
  }[];
  readonly usage_metadata?: Record<string, unknown> | null;
  readonly tool_call_id?: string;
  readonly status?: string;
}

/**
 * Serialises an AI or tool message to a JSON-safe dict for `task_running`.
 *
 * @param message - a subagent message
 * @returns a plain object: `type`, `id`, `name`, `content`, kwargs, metadata,
 *   plus `tool_calls`/`usage_metadata` (AI) or `tool_call_id`/`status` (tool)
 */
export function serializeMessage(message: BaseMessage): SerializedMessage {
  const base = {
    type: message.type,
    id: message.id ?? null,
    name: message.name ?? null,
    content: message.content,
    additional_kwargs: { ...message.additional_kwargs },
    response_metadata: { ...message.response_metadata },
  };
  if (AIMessage.isInstance(message)) {
    return {
      ...base,
      tool_calls: (message.tool_calls ?? []).map((c) => ({
        name: c.name,
        args: c.args,
        id: c.id ?? null,
        type: "tool_call" as const,
      })),
      usage_metadata: message.usage_metadata
        ? ({ ...(message.usage_metadata as object) } as Record<string, unknown>)
        : null,
    };
  }
  if (ToolMessage.isInstance(message)) {
    return {
      ...base,
      tool_call_id: message.tool_call_id,
      ...(message.status !== undefined ? { status: message.status } : {}),
    };
  }
  return base;
}
