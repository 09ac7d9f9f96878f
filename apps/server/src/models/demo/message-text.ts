/** Plain text of message content (string or content blocks). */
import type { BaseMessage } from "@langchain/core/messages";

/**
 * @param content - a message's `content`
 * @returns the concatenated text blocks
 */
export function contentText(content: BaseMessage["content"]): string {
  if (typeof content === "string") return content;
  return content
    .map((block) =>
      typeof block === "string"
        ? block
        : block.type === "text" && typeof (block as { text?: unknown }).text === "string"
          ? (block as { text: string }).text
          : "",
    )
    .join("");
}

/**
 * Shortens text for a one-line summary.
 *
 * @param text - any text
 * @param max - longest result
 * @returns the first line, cut to `max` characters with `…`
 */
export function oneLine(text: string, max = 120): string {
  const first = text.trim().split(/\r?\n/, 1)[0] ?? "";
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}
