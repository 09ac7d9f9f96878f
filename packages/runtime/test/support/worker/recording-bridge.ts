/**
 * A {@link StreamBridge} for worker tests: records every publish (after a JSON
 * round trip, so a payload that is not JSON-safe fails the test) and lets a
 * test react to, or fail, a publish.
 */
import type { StreamBridge, StreamItem, SubscribeOptions } from "../../../src/stream/stream-bridge.js";

/** One recorded publish. */
export interface RecordedEvent {
  runId: string;
  event: string;
  data: unknown;
}

/** Options of {@link RecordingBridge}. */
export interface RecordingBridgeOptions {
  /** Called after each publish is recorded (await-ed), e.g. to abort a run at a precise event. */
  onPublish?: (event: RecordedEvent, bridge: RecordingBridge) => void | Promise<void>;
  /** Returns an error to make that publish fail. */
  failWhen?: (event: string, data: unknown) => Error | undefined;
}

export class RecordingBridge implements StreamBridge {
  readonly supportsCrossProcess = false;
  readonly events: RecordedEvent[] = [];
  readonly ended = new Set<string>();
  private seq = 0;

  constructor(private readonly options: RecordingBridgeOptions = {}) {}

  async publish(runId: string, event: string, data: unknown): Promise<string> {
    const failure = this.options.failWhen?.(event, data);
    if (failure) throw failure;
    const text = JSON.stringify(data);
    const recorded: RecordedEvent = { runId, event, data: text === undefined ? undefined : JSON.parse(text) };
    this.events.push(recorded);
    await this.options.onPublish?.(recorded, this);
    return `${Date.now()}-${this.seq++}`;
  }

  async publishEnd(runId: string): Promise<void> {
    this.ended.add(runId);
  }

  async *subscribe(runId: string, _options?: SubscribeOptions): AsyncIterable<StreamItem> {
    let i = 0;
    for (const e of this.events)
      if (e.runId === runId) yield { kind: "event", id: String(i++), event: e.event, data: e.data };
    yield { kind: "end" };
  }

  async exists(runId: string): Promise<boolean> {
    return this.events.some((e) => e.runId === runId) || this.ended.has(runId);
  }

  async cleanup(): Promise<void> {}

  async close(): Promise<void> {}

  /** Event names of a run, in publish order. */
  names(runId?: string): string[] {
    return this.events.filter((e) => runId === undefined || e.runId === runId).map((e) => e.event);
  }

  /** Payloads of one event name, in publish order. */
  dataOf(event: string): unknown[] {
    return this.events.filter((e) => e.event === event).map((e) => e.data);
  }
}
