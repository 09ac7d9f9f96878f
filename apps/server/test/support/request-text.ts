/**
 * The text of the chat requests a scripted model endpoint recorded, for the
 * e2e scripts that answer by what the user said (a message's content is a
 * string or a list of text blocks).
 */
import type { RecordedRequest } from "@deerflow/agent/testing";

/** A message's text: its string content, or its text blocks joined. */
export function messageText(message: Readonly<Record<string, unknown>>): string {
  const content = message["content"];
  if (typeof content === "string") return content;
  return Array.isArray(content) ? (content as { text?: string }[]).map((b) => b.text ?? "").join("") : "";
}

/** The text of the request's first user message ("" without one). */
export function firstUserText(request: RecordedRequest): string {
  return messageText(request.messages.find((m) => m["role"] === "user") ?? {});
}

/** The text of the request's last user message ("" without one). */
export function lastUserText(request: RecordedRequest): string {
  return messageText(request.messages.filter((m) => m["role"] === "user").at(-1) ?? {});
}
