/**
 * Loop detection — DeerFlow's `LoopDetectionMiddleware` (chain row 28, §3.3):
 * when the model asks for the same tool call (same name, same arguments) for
 * the N-th time in one turn, the calls are removed from its response and a
 * note explains why, which ends the turn instead of burning the recursion limit.
 *
 * Config keys: `threshold` (the server's `agent.loop_threshold`, default 3).
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../logger.js";
import { appendText, lastAiMessage, lastHumanIndex, rewriteAiMessage } from "../messages.js";

/** Default number of identical calls that counts as a loop. */
export const DEFAULT_LOOP_THRESHOLD = 3;

/** Options of {@link createLoopDetectionMiddleware}. */
export interface LoopDetectionOptions {
  /** Identical calls in one turn that stop it (≥ 2). Default 3. */
  readonly threshold?: number;
  readonly logger?: Logger;
}

/** Canonical JSON (sorted keys), so `{a,b}` and `{b,a}` count as the same arguments. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The note appended when a loop is stopped. */
export function loopStoppedText(toolName: string, times: number): string {
  return `[LOOP DETECTED] Stopped: the tool call \`${toolName}\` was requested ${times} times with the same arguments in this turn. Summarise what you have so far, or try a different approach in your next message.`;
}

/**
 * Finds a repeated call in the last AI message, counting the calls of every AI
 * message since the last human message.
 *
 * @param messages - the conversation, ending with the response to check
 * @param threshold - identical calls that count as a loop
 * @returns the looping tool name and count, or `undefined`
 */
export function findToolLoop(
  messages: readonly BaseMessage[],
  threshold: number,
): { tool: string; count: number } | undefined {
  const last = lastAiMessage(messages);
  if (last === undefined || (last.tool_calls?.length ?? 0) === 0) return undefined;
  const counts = new Map<string, number>();
  for (const m of messages.slice(lastHumanIndex(messages) + 1)) {
    if (!AIMessage.isInstance(m)) continue;
    for (const c of m.tool_calls ?? []) {
      const key = `${c.name}\u0000${canonicalJson(c.args)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  for (const c of last.tool_calls ?? []) {
    const count = counts.get(`${c.name}\u0000${canonicalJson(c.args)}`) ?? 0;
    if (count >= threshold) return { tool: c.name, count };
  }
  return undefined;
}

/**
 * Creates the loop-detection middleware.
 *
 * @param options - threshold and logger
 * @returns an `afterModel` middleware
 */
export function createLoopDetectionMiddleware(options: LoopDetectionOptions = {}): AgentMiddleware {
  const threshold = Math.max(2, Math.trunc(options.threshold ?? DEFAULT_LOOP_THRESHOLD));
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "LoopDetectionMiddleware",
    afterModel: (state) => {
      const messages = state.messages as BaseMessage[];
      const loop = findToolLoop(messages, threshold);
      const last = lastAiMessage(messages);
      if (loop === undefined || last === undefined) return undefined;
      logger.warn({ tool: loop.tool, count: loop.count, threshold }, "tool-call loop detected; ending the turn");
      return {
        messages: [
          rewriteAiMessage(last, {
            content: appendText(last.content, loopStoppedText(loop.tool, loop.count)),
            toolCalls: [],
            finishReason: "stop",
          }),
        ],
      };
    },
  });
}
