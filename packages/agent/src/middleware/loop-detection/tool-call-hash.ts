/**
 * The identity of one response's tool calls, for loop detection: the set of
 * `name + stable JSON of the arguments`, independent of the calls' order and
 * of the arguments' key order. `read_file` ranges are normalised to 200-line
 * buckets (re-reading a nearby range is the same read); `grep` / `glob`
 * patterns and written content stay part of the identity.
 */
import { createHash } from "node:crypto";
import type { ToolCall } from "@langchain/core/messages/tool";

/** Lines per `read_file` range bucket. */
const READ_BUCKET_LINES = 200;

/**
 * JSON with sorted keys, so `{a,b}` and `{b,a}` serialise alike.
 *
 * @param value - any JSON-like value
 * @returns its canonical JSON
 */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .filter((k) => record[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const bucket = (line: unknown): number | null =>
  typeof line === "number" && Number.isFinite(line) ? Math.floor(Math.max(0, line - 1) / READ_BUCKET_LINES) : null;

/** The arguments that identify a call. */
function identifyingArgs(call: Pick<ToolCall, "name" | "args">): unknown {
  if (call.name !== "read_file") return call.args;
  const { start_line, end_line, ...rest } = (call.args ?? {}) as Record<string, unknown>;
  return { ...rest, start_bucket: bucket(start_line), end_bucket: bucket(end_line) };
}

/**
 * The hash of a response's tool-call set.
 *
 * @param calls - the response's tool calls
 * @returns a short hex digest
 */
export function toolCallSetHash(calls: readonly Pick<ToolCall, "name" | "args">[]): string {
  const parts = calls.map((c) => `${c.name}\u0000${stableJson(identifyingArgs(c))}`).sort();
  return createHash("sha256").update(parts.join("\u0001")).digest("hex").slice(0, 16);
}
