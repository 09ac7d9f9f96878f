/**
 * Knowing when a run's checkpoint writes have landed.
 *
 * When a LangGraph stream is aborted, the stream rejects at once but the
 * loop's queued `put` / `putWrites` calls keep landing afterwards (LangGraph
 * chains them and only awaits them in a `finally` the consumer cannot reach).
 * Rolling back, or letting the next run of the thread start, before they land
 * would let a late write of the aborted run become the thread's head again.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/** A checkpointer view that counts its in-flight writes. */
export interface TrackedCheckpointer {
  /** Hand this to the graph (it forwards everything to the real saver). */
  checkpointer: BaseCheckpointSaver;
  /**
   * Resolves once no write is in flight and none started during one more turn
   * of the event loop (LangGraph starts a chained `put` right after the
   * previous one settles, so a single zero count is not enough).
   */
  idle(): Promise<void>;
}

const WRITE_METHODS = new Set<PropertyKey>(["put", "putWrites", "deleteThread"]);

function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Wraps `saver` so that {@link TrackedCheckpointer.idle} can wait for the
 * writes made through the wrapper.
 */
export function trackCheckpointerWrites(saver: BaseCheckpointSaver): TrackedCheckpointer {
  const inFlight = new Set<Promise<unknown>>();
  let started = 0;
  const checkpointer = new Proxy(saver, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!WRITE_METHODS.has(prop)) return method.bind(target);
      return (...args: unknown[]) => {
        const result = Promise.resolve(method.apply(target, args));
        started++;
        const tracked = result.then(
          () => undefined,
          () => undefined,
        );
        inFlight.add(tracked);
        void tracked.then(() => inFlight.delete(tracked));
        return result;
      };
    },
  });
  return {
    checkpointer,
    async idle() {
      for (;;) {
        while (inFlight.size > 0) await Promise.all([...inFlight]);
        const before = started;
        await nextMacrotask();
        if (inFlight.size === 0 && started === before) return;
      }
    },
  };
}
