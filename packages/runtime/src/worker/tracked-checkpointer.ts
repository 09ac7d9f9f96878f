/**
 * Knowing when a run's checkpoint writes have landed.
 *
 * When a LangGraph stream is aborted, the stream rejects at once but the
 * loop's queued `put` / `putWrites` calls keep landing afterwards (LangGraph
 * chains them and only awaits them in a `finally` the consumer cannot reach).
 * Rolling back, or letting the next run of the thread start, before they land
 * would let a late write of the aborted run become the thread's head again.
 *
 * One view per saver, shared by every run, counting writes per thread (a
 * thread executes one run at a time): graph factories see the same
 * checkpointer object on every run, so a graph compiled for it is compiled
 * once, and a run allocates no wrapper of its own.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/** A checkpointer view that counts its in-flight writes per thread. */
export interface TrackedCheckpointer {
  /** Hand this to the graph (it forwards everything to the real saver); the same object for every run. */
  checkpointer: BaseCheckpointSaver;
  /**
   * Resolves once no write of `threadId` is in flight and none started during
   * one more turn of the event loop (LangGraph starts a chained `put` right
   * after the previous one settles, so a single zero count is not enough).
   */
  idle(threadId: string): Promise<void>;
}

const WRITE_METHODS = new Set<PropertyKey>(["put", "putWrites", "deleteThread"]);

/** Writes of one thread in flight, and how many ever started (to see one start during a wait). */
interface ThreadWrites {
  readonly inFlight: Set<Promise<unknown>>;
  started: number;
}

function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The thread a write is for: `config.configurable.thread_id`, or `deleteThread`'s argument. */
function threadOf(prop: PropertyKey, args: readonly unknown[]): string {
  if (prop === "deleteThread") return String(args[0]);
  const id = (args[0] as { configurable?: { thread_id?: unknown } } | undefined)?.configurable?.thread_id;
  return typeof id === "string" ? id : String(id);
}

const views = new WeakMap<BaseCheckpointSaver, TrackedCheckpointer>();

/**
 * The tracked view of `saver` (created once per saver, then reused), so that
 * {@link TrackedCheckpointer.idle} can wait for the writes made through it.
 */
export function trackCheckpointerWrites(saver: BaseCheckpointSaver): TrackedCheckpointer {
  const known = views.get(saver);
  if (known !== undefined) return known;
  const threads = new Map<string, ThreadWrites>();
  const track = (threadId: string, result: Promise<unknown>): void => {
    let writes = threads.get(threadId);
    if (writes === undefined) {
      writes = { inFlight: new Set(), started: 0 };
      threads.set(threadId, writes);
    }
    const entry = writes;
    entry.started++;
    const tracked = result.then(
      () => undefined,
      () => undefined,
    );
    entry.inFlight.add(tracked);
    void tracked.then(() => {
      entry.inFlight.delete(tracked);
      if (entry.inFlight.size > 0) return;
      // Forgotten one macrotask later if no write started meanwhile: an absent thread has been quiet that long.
      const started = entry.started;
      setImmediate(() => {
        if (entry.inFlight.size === 0 && entry.started === started && threads.get(threadId) === entry)
          threads.delete(threadId);
      });
    });
  };
  const methods = new Map<PropertyKey, { own: unknown; method: unknown }>();
  const checkpointer = new Proxy(saver, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      // One function per method, made on first use (not one per access).
      const cached = methods.get(prop);
      if (cached?.own === value) return cached.method;
      const own = value as (...args: unknown[]) => unknown;
      const method = WRITE_METHODS.has(prop)
        ? (...args: unknown[]) => {
            const result = Promise.resolve(own.apply(target, args));
            track(threadOf(prop, args), result);
            return result;
          }
        : own.bind(target);
      methods.set(prop, { own: value, method });
      return method;
    },
  });
  const view: TrackedCheckpointer = {
    checkpointer,
    async idle(threadId) {
      for (;;) {
        const writes = threads.get(threadId);
        if (writes === undefined) return;
        if (writes.inFlight.size > 0) {
          await Promise.all([...writes.inFlight]);
          continue;
        }
        const before = writes.started;
        await nextMacrotask();
        if (writes.inFlight.size === 0 && writes.started === before) return;
      }
    },
  };
  views.set(saver, view);
  return view;
}
