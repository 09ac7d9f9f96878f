/**
 * Where the gate's memory lives: on the tool results in `messages` (DeerFlow's
 * design), so it is the thread's state — checkpointed, shared by every run of
 * the thread, and gone when summarisation removes the read it stands for.
 */
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createHash } from "node:crypto";
import { posix } from "node:path";
import { copyToolMessage } from "../../internal/copy-tool-message.js";
import { READ_MARK_KEY, WRITE_MARK_KEY } from "./texts.js";

/** The key marks are compared by (`posix.normalize`: `/a/./b` and `/a/b` are one file). */
export const markPath = (path: string): string => posix.normalize(path);

/** SHA-256 of a file's text. */
export const contentHash = (content: string): string => createHash("sha256").update(content, "utf8").digest("hex");

/**
 * The hash of the latest read of a file that no later write voided.
 *
 * @param messages - the thread's messages
 * @param path - the normalised path
 * @returns the hash, or undefined when the file was not read since its last write
 */
export function latestReadHash(messages: readonly BaseMessage[], path: string): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined || !ToolMessage.isInstance(message)) continue;
    const write = message.additional_kwargs[WRITE_MARK_KEY] as { path?: unknown } | undefined;
    if (write?.path === path) return undefined;
    const read = message.additional_kwargs[READ_MARK_KEY] as { path?: unknown; hash?: unknown } | undefined;
    if (read?.path === path) return typeof read.hash === "string" ? read.hash : undefined;
  }
  return undefined;
}

/**
 * A copy of a tool result carrying a mark.
 *
 * @param message - the result
 * @param key - {@link READ_MARK_KEY} or {@link WRITE_MARK_KEY}
 * @param mark - the mark's value
 * @returns the stamped copy (same id, so it is the same message)
 */
export function withMark(message: ToolMessage, key: string, mark: Readonly<Record<string, string>>): ToolMessage {
  return copyToolMessage(message, { additionalKwargs: { [key]: { ...mark } } });
}
