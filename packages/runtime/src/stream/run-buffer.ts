/**
 * The retained events of one run in {@link MemoryStreamBridge}: a ring of
 * `capacity` slots indexed by the absolute sequence number (`seq % capacity`),
 * so appending, evicting and reading by seq are all O(1).
 */
import { formatEventId } from "./event-id.js";
import type { StreamEvent } from "./stream-bridge.js";
import { WaitList } from "./waiters.js";

/** Per-run state of the in-memory bridge. */
export class RunBuffer {
  private readonly slots: Array<StreamEvent | undefined>;
  /** Seq of the earliest retained event (advances on overflow). */
  startSeq = 0;
  /** Seq the next published event gets (= number of events ever published). */
  nextSeq = 0;
  /**
   * Seq at which the stream ends (`nextSeq` when `publishEnd` was called), or
   * null. Events published after the end are kept but never delivered.
   */
  endSeq: number | null = null;
  /** Set by `cleanup`: subscribers still attached end with a gap. */
  deleted = false;
  /** Subscribers parked until the next change. */
  readonly waiters = new WaitList();
  private lastMs = 0;

  constructor(readonly capacity: number) {
    this.slots = new Array<StreamEvent | undefined>(capacity);
  }

  /** Appends an event (evicting the oldest when full) and wakes subscribers. */
  append(event: string, data: unknown): StreamEvent {
    // Clamped so ids stay increasing in (ms, seq) order even if the clock steps back.
    this.lastMs = Math.max(Date.now(), this.lastMs);
    const seq = this.nextSeq;
    const entry: StreamEvent = Object.freeze({ kind: "event", id: formatEventId(this.lastMs, seq), event, data });
    if (seq - this.startSeq === this.capacity) this.startSeq += 1;
    this.slots[seq % this.capacity] = entry;
    this.nextSeq = seq + 1;
    this.waiters.wakeAll();
    return entry;
  }

  /** Marks the end; false when it was already marked. */
  end(): boolean {
    if (this.endSeq !== null) return false;
    this.endSeq = this.nextSeq;
    this.waiters.wakeAll();
    return true;
  }

  /** The retained event with this seq (caller checks `startSeq <= seq < nextSeq`). */
  at(seq: number): StreamEvent {
    return this.slots[seq % this.capacity] as StreamEvent;
  }

  /** Seq after the last deliverable event. */
  get visibleEnd(): number {
    return this.endSeq ?? this.nextSeq;
  }

  /** Id of the earliest retained event, or null when none. */
  get earliestId(): string | null {
    return this.nextSeq > this.startSeq ? this.at(this.startSeq).id : null;
  }

  /** Id of the latest deliverable retained event, or null when none. */
  get latestId(): string | null {
    const last = this.visibleEnd - 1;
    return last >= this.startSeq ? this.at(last).id : null;
  }
}
