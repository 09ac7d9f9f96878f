/**
 * Public stream modes, the LangGraph JS modes that produce them, and the SSE
 * event names they are published under.
 *
 * | public mode      | graph mode(s)        | SSE event(s)                                                      |
 * |------------------|----------------------|-------------------------------------------------------------------|
 * | `values`         | `values`             | `values`                                                          |
 * | `updates`        | `updates`            | `updates`                                                         |
 * | `custom`         | `custom`             | `custom`                                                          |
 * | `debug`          | `debug`              | `debug`                                                           |
 * | `tasks`          | `tasks`              | `tasks`                                                           |
 * | `checkpoints`    | `checkpoints`        | `checkpoints`                                                     |
 * | `tools`          | `tools`              | `tools` (tool lifecycle: start, event, end, error)                |
 * | `messages-tuple` | `messages`           | `messages` (`[message, metadata]`)                                |
 * | `messages`       | `messages`, `values` | `messages/metadata`, `messages/partial`, `messages/complete`      |
 *
 * With `streamSubgraphs`, events produced inside a subgraph are named
 * `event|ns1|ns2` (each `ns` as LangGraph gives it, `node:taskId`); root events
 * keep the bare name.
 */
import { RuntimeError } from "../errors.js";
import type { StreamMode } from "../runs/types.js";

/** Every stream mode a client may request, in documentation order. */
export const STREAM_MODES: readonly StreamMode[] = [
  "values",
  "updates",
  "messages",
  "messages-tuple",
  "custom",
  "debug",
  "tasks",
  "checkpoints",
  "tools",
];

const STREAM_MODE_SET: ReadonlySet<string> = new Set(STREAM_MODES);

/** A stream mode LangGraph JS's `graph.stream()` understands (the subset the worker uses). */
export type GraphStreamMode =
  | "values"
  | "updates"
  | "messages"
  | "custom"
  | "debug"
  | "tasks"
  | "checkpoints"
  | "tools";

/** SSE event names of the legacy `messages` mode. */
export const LEGACY_MESSAGE_EVENTS = {
  metadata: "messages/metadata",
  partial: "messages/partial",
  complete: "messages/complete",
} as const;

function describeMode(value: unknown): string {
  if (typeof value === "string") return value === "" ? '""' : value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Normalises a requested `stream_mode`: a string or an array of strings.
 * `null`, `undefined` and `[]` mean `["values"]`; duplicates are removed,
 * first occurrence wins.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming every unsupported entry
 *   (`Unsupported stream mode(s): events`).
 * @example
 * ```ts
 * normalizeStreamModes("updates");                       // ["updates"]
 * normalizeStreamModes(["values", "messages-tuple", "values"]); // ["values", "messages-tuple"]
 * ```
 */
export function normalizeStreamModes(value: unknown): StreamMode[] {
  if (value === null || value === undefined) return ["values"];
  const entries: unknown[] = Array.isArray(value) ? value : [value];
  if (entries.length === 0) return ["values"];
  const invalid: string[] = [];
  const modes: StreamMode[] = [];
  for (const entry of entries) {
    if (typeof entry !== "string" || !STREAM_MODE_SET.has(entry)) {
      const shown = describeMode(entry);
      if (!invalid.includes(shown)) invalid.push(shown);
      continue;
    }
    const mode = entry as StreamMode;
    if (!modes.includes(mode)) modes.push(mode);
  }
  if (invalid.length > 0) {
    throw new RuntimeError("INVALID_ARGUMENT", `Unsupported stream mode(s): ${invalid.join(", ")}`, {
      details: { invalid, supported: [...STREAM_MODES] },
    });
  }
  return modes;
}

/**
 * The graph stream modes needed to serve `modes`. `updates` is always
 * included because the worker watches it for `__interrupt__` to tell an
 * interrupted run from a finished one; modes the client did not ask for are
 * consumed but never published.
 */
export function graphStreamModesFor(modes: readonly StreamMode[]): GraphStreamMode[] {
  const out = new Set<GraphStreamMode>();
  for (const mode of modes) {
    if (mode === "messages-tuple") out.add("messages");
    else if (mode === "messages") {
      out.add("messages");
      out.add("values");
    } else out.add(mode);
  }
  out.add("updates");
  return [...out];
}

/**
 * SSE event name for `event` emitted in namespace `namespace`: the bare name
 * at the root, `event|ns1|ns2` inside subgraphs.
 */
export function sseEventName(event: string, namespace: readonly string[]): string {
  return namespace.length === 0 ? event : `${event}|${namespace.join("|")}`;
}
