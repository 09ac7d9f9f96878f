/**
 * DeerFlow's loop-detection texts (§3.3). The two repetition texts are
 * verbatim; the endings of the per-tool texts are reconstructed (the
 * reference elides them) in the same voice.
 */

/** Warning for a repeated tool-call set (injected at the next model call). */
export const LOOP_WARNING_TEXT =
  "[LOOP DETECTED] You are repeating the same tool calls. Stop calling tools and produce your final answer now. If you cannot complete the task, summarize what you accomplished so far.";

/** Added to the response whose repeated tool calls were stripped. */
export const LOOP_FORCED_STOP_TEXT =
  "[FORCED STOP] Repeated tool calls exceeded the safety limit. Producing final answer with results collected so far.";

/** Warning for one tool called too often in a turn. */
export function toolFrequencyWarningText(toolName: string, count: number): string {
  return `[LOOP DETECTED] You have called ${toolName} ${count} times without producing a final answer. Stop calling ${toolName} and produce your final answer now. If you cannot complete the task, summarize what you accomplished so far.`;
}

/** Added to the response whose calls were stripped because one tool was called too often. */
export function toolFrequencyForcedStopText(toolName: string, count: number): string {
  return `[FORCED STOP] Tool ${toolName} called ${count} times — exceeded the per-tool safety limit. Producing final answer with results collected so far.`;
}
