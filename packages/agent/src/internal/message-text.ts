/**
 * The plain text of a message's content (DeerFlow's `_normalize_content` /
 * `message_content_to_text`): strings as they are, text blocks joined by
 * newlines, nested `content` followed, anything else (images...) dropped.
 */

/**
 * @param content - a message's `content` (string, content blocks, or anything else)
 * @returns its text ("" when it has none)
 * @example
 * ```ts
 * messageText([{ type: "text", text: "a" }, { type: "image_url", image_url: "x" }, "b"]); // "a\nb"
 * ```
 */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map(messageText)
      .filter((part) => part !== "")
      .join("\n");
  if (typeof content === "object" && content !== null) {
    const block = content as { text?: unknown; content?: unknown };
    if (typeof block.text === "string") return block.text;
    if (block.content !== undefined) return messageText(block.content);
  }
  return "";
}
