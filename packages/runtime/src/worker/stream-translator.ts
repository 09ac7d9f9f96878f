/**
 * Turns the items of `graph.stream(input, { streamMode: [...], subgraphs })`
 * into the SSE events a client asked for (see `stream-modes.ts` for the table).
 *
 * The legacy `messages` mode is derived the way LangGraph's JS API server
 * derives it, simply:
 * - `messages/metadata` `{[id]: {metadata}}` when a message id is first seen in
 *   the graph's `messages` stream;
 * - `messages/partial` `[messageSoFar]` for every chunk, where chunks of one id
 *   are accumulated with `AIMessageChunk.concat` (a whole message replaces);
 * - `messages/complete` `[messages]` with the messages of a `values` snapshot or
 *   a node's `updates` entry whose ids were not completed before (each id once).
 * Messages without an id are skipped by the legacy mode (clients key on ids).
 */
import { isBaseMessage, isBaseMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { StreamMode } from "../runs/types.js";
import { serializeModePayload } from "./mode-payloads.js";
import { serializeMessage, serializeMessageTuple, serializeValue } from "./serialization.js";
import { LEGACY_MESSAGE_EVENTS, sseEventName } from "./stream-modes.js";

/** One event to publish. */
export interface TranslatedEvent {
  event: string;
  data: unknown;
}

/** A graph stream item split into its parts. */
export interface GraphStreamItem {
  namespace: string[];
  mode: string;
  chunk: unknown;
}

/**
 * Splits a stream item: `[mode, chunk]` when streaming a list of modes,
 * `[namespace, mode, chunk]` with `subgraphs: true`. Null when the item has
 * neither shape.
 */
export function parseGraphStreamItem(item: unknown, subgraphs: boolean): GraphStreamItem | null {
  if (!Array.isArray(item)) return null;
  if (subgraphs) {
    const [namespace, mode, chunk] = item as [unknown, unknown, unknown];
    if (!Array.isArray(namespace) || typeof mode !== "string") return null;
    return { namespace: namespace.map(String), mode, chunk };
  }
  const [mode, chunk] = item as [unknown, unknown];
  if (typeof mode !== "string") return null;
  return { namespace: [], mode, chunk };
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function messagesIn(value: unknown): BaseMessage[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((m): m is BaseMessage => isBaseMessage(m));
}

function isRemoval(message: BaseMessage): boolean {
  return (message as unknown as { type?: unknown }).type === "remove";
}

/** Stateful translator for one run. */
export class StreamTranslator {
  private readonly requested: ReadonlySet<StreamMode>;
  private readonly partials = new Map<string, BaseMessage>();
  private readonly completed = new Set<string>();
  private interrupted = false;

  /** @param modes - the client's normalised stream modes */
  constructor(modes: readonly StreamMode[]) {
    this.requested = new Set(modes);
  }

  /** True once the root graph reported `__interrupt__` (interrupt(), interruptBefore/After). */
  get sawInterrupt(): boolean {
    return this.interrupted;
  }

  /** Events for one parsed graph stream item, in publish order. */
  translate(item: GraphStreamItem): TranslatedEvent[] {
    const { namespace, mode, chunk } = item;
    if (
      namespace.length === 0 &&
      (mode === "updates" || mode === "values") &&
      asRecord(chunk)?.["__interrupt__"] !== undefined
    ) {
      this.interrupted = true;
    }
    const events: TranslatedEvent[] = [];
    if (mode === "messages") {
      if (this.requested.has("messages-tuple"))
        events.push({ event: sseEventName("messages", namespace), data: serializeMessageTuple(chunk) });
      if (this.requested.has("messages")) this.partial(chunk, namespace, events);
      return events;
    }
    if (this.requested.has(mode as StreamMode))
      events.push({ event: sseEventName(mode, namespace), data: serializeModePayload(mode, chunk) });
    if (this.requested.has("messages") && (mode === "values" || mode === "updates"))
      this.complete(mode, chunk, namespace, events);
    return events;
  }

  private partial(chunk: unknown, namespace: string[], events: TranslatedEvent[]): void {
    if (!Array.isArray(chunk)) return;
    const [message, metadata] = chunk as [unknown, unknown];
    if (!isBaseMessage(message) || typeof message.id !== "string" || message.id === "") return;
    const id = message.id;
    const previous = this.partials.get(id);
    if (previous === undefined) {
      events.push({
        event: sseEventName(LEGACY_MESSAGE_EVENTS.metadata, namespace),
        data: { [id]: { metadata: asRecord(metadata) ? serializeValue(metadata) : {} } },
      });
    }
    let next: BaseMessage = message;
    if (previous !== undefined && isBaseMessageChunk(previous) && isBaseMessageChunk(message)) {
      try {
        next = previous.concat(message);
      } catch {
        next = message; // incompatible chunk types: the newest wins rather than failing the run
      }
    }
    this.partials.set(id, next);
    events.push({ event: sseEventName(LEGACY_MESSAGE_EVENTS.partial, namespace), data: [serializeMessage(next)] });
  }

  private complete(mode: string, chunk: unknown, namespace: string[], events: TranslatedEvent[]): void {
    const record = asRecord(chunk);
    if (!record) return;
    const candidates =
      mode === "values"
        ? messagesIn(record["messages"])
        : Object.values(record).flatMap((update) => messagesIn(asRecord(update)?.["messages"]));
    const fresh: Record<string, unknown>[] = [];
    for (const message of candidates) {
      const id = message.id;
      if (typeof id !== "string" || id === "" || this.completed.has(id) || isRemoval(message)) continue;
      this.completed.add(id);
      fresh.push(serializeMessage(message));
    }
    if (fresh.length > 0) events.push({ event: sseEventName(LEGACY_MESSAGE_EVENTS.complete, namespace), data: fresh });
  }
}
