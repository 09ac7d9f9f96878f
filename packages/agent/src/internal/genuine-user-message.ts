/**
 * "The user's own words": DeerFlow's `is_genuine_user_message`. Middlewares
 * inject hidden human messages (reminders, durable context, memory); those
 * carry `additional_kwargs.hide_from_ui` and are not what the user typed.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";

/**
 * `additional_kwargs` key holding what the user typed when a middleware put
 * trusted text into the same message (DeerFlow's `original_user_content`: the
 * uploads block is prepended to the user's message). Sanitisation then only
 * touches the user's part. First writer wins: a middleware sets it only when absent.
 */
export const ORIGINAL_USER_CONTENT_KEY = "original_user_content";

/**
 * Whether a message is one the user wrote (a human message not hidden from the UI).
 *
 * @param message - any message
 * @returns true for a visible human message
 */
export function isGenuineUserMessage(message: BaseMessage): boolean {
  return HumanMessage.isInstance(message) && message.additional_kwargs["hide_from_ui"] !== true;
}

/**
 * Index of the latest message the user wrote.
 *
 * @param messages - the conversation
 * @returns its index, or -1
 */
export function lastGenuineUserIndex(messages: readonly BaseMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message !== undefined && isGenuineUserMessage(message)) return i;
  }
  return -1;
}
