/**
 * What the custom-agent tools read from their run: the user (only
 * `configurable.user_id`, never `context`), the agent name and channel — and
 * how they answer (a `ToolMessage`, in a `Command` when state changes too).
 */
import { ToolMessage } from "@langchain/core/messages";
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { readRunOptions, type RunOptions } from "../run/run-options.js";
import { DEFAULT_AGENT_USER_ID, type LeadCustomAgents } from "./custom-agents-options.js";

/** The run of a tool call, with its user. */
export function toolRun(
  config: ToolRunnableConfig | undefined,
  agents: LeadCustomAgents,
): { run: RunOptions; userId: string; toolCallId: string } {
  const run = readRunOptions(config as Parameters<typeof readRunOptions>[0]);
  return {
    run,
    userId: run.userId ?? agents.defaultUserId ?? DEFAULT_AGENT_USER_ID,
    toolCallId: config?.toolCall?.id ?? "",
  };
}

/** A tool result message. */
export function toolText(name: string, toolCallId: string, content: string, error = false): ToolMessage {
  return new ToolMessage({ content, tool_call_id: toolCallId, name, ...(error ? { status: "error" as const } : {}) });
}
