/**
 * What extraction reads of a conversation (DeerFlow): the user's own messages
 * and the final AI answers — no tool calls, tool results or hidden messages
 * (reminders, injected memory) — with upload blocks cut; and the signals
 * (correction, reinforcement) the user's words carry.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { MemorySignal } from "./write-gate.js";
import { stripUploadBlocks } from "./upload-mentions.js";

/** One turn of the filtered conversation. */
export interface ConversationTurn {
  readonly role: "user" | "assistant";
  readonly text: string;
}

function textOf(content: BaseMessage["content"]): string {
  if (typeof content === "string") return content;
  return content
    .map((block) => (block.type === "text" && typeof block["text"] === "string" ? block["text"] : ""))
    .join("");
}

const hidden = (m: BaseMessage): boolean => m.additional_kwargs?.["hide_from_ui"] === true;

/**
 * @param messages - the thread's messages
 * @returns the user's messages and final AI answers, as text
 */
export function conversationTurns(messages: readonly BaseMessage[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  for (const m of messages) {
    if (hidden(m)) continue;
    if (HumanMessage.isInstance(m)) {
      const text = stripUploadBlocks(textOf(m.content)).trim();
      if (text !== "") turns.push({ role: "user", text });
    } else if (AIMessage.isInstance(m) && (m.tool_calls ?? []).length === 0) {
      const text = textOf(m.content).trim();
      if (text !== "") turns.push({ role: "assistant", text });
    }
  }
  return turns;
}

/**
 * A conversation worth extracting from: at least one user message and one answer.
 *
 * @param turns - from {@link conversationTurns}
 */
export function isTrivialConversation(turns: readonly ConversationTurn[]): boolean {
  return !turns.some((t) => t.role === "user") || !turns.some((t) => t.role === "assistant");
}

const CORRECTION =
  /\b(?:that'?s (?:wrong|incorrect|not (?:right|what i))|not quite|you misunderstood|i (?:said|meant)|no,? (?:i|it|that|the)|actually,? (?:i|it|my)|please don'?t|stop doing|wrong again)\b/i;
const REINFORCEMENT =
  /\b(?:exactly(?: right)?|perfect|that'?s (?:right|correct|great|it)|well done|keep (?:doing|it) (?:that|like this|up)|yes,? (?:exactly|that'?s|like that))\b/i;

/**
 * @param turns - the conversation
 * @returns the signals in the user's messages
 */
export function detectSignals(turns: readonly ConversationTurn[]): Set<MemorySignal> {
  const signals = new Set<MemorySignal>();
  for (const t of turns) {
    if (t.role !== "user") continue;
    if (CORRECTION.test(t.text)) signals.add("correction");
    if (REINFORCEMENT.test(t.text)) signals.add("reinforcement");
  }
  return signals;
}
