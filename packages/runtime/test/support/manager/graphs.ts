/**
 * Small real LangGraph graphs for run manager tests. Input `{ log: [label],
 * delayMs?, fail? }`: the node emits a custom `started` event, waits `delayMs`
 * (aborting with the run's signal), then appends `done:<label>`.
 */
import { Annotation, END, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { GraphFactory } from "../../../src/worker/types.js";

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  delayMs: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
  fail: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
});

/** Sleeps `ms`, rejecting with the signal's reason when it aborts. */
function abortableWait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Records node starts and ends across runs, to prove ordering and exclusion. */
export class Trace {
  readonly events: string[] = [];
  active = 0;
  maxActive = 0;
}

/** Builds the test graph with a checkpointer; `trace` observes execution. */
export function buildWorkGraph(checkpointer: BaseCheckpointSaver | undefined, trace = new Trace()) {
  return new StateGraph(State)
    .addNode("work", async (state, config: LangGraphRunnableConfig) => {
      const label = state.log.at(-1) ?? "?";
      trace.active += 1;
      trace.maxActive = Math.max(trace.maxActive, trace.active);
      trace.events.push(`start:${label}`);
      try {
        config.writer?.({ started: label });
        await abortableWait(state.delayMs, config.signal);
        if (state.fail) throw new Error(state.fail);
        trace.events.push(`end:${label}`);
        return { log: [`done:${label}`] };
      } finally {
        trace.active -= 1;
      }
    })
    .addEdge(START, "work")
    .addEdge("work", END)
    .compile(checkpointer === undefined ? {} : { checkpointer });
}

/** A graph factory compiling the work graph with the run's checkpointer. */
export function workGraphFactory(trace = new Trace()): GraphFactory {
  return ({ checkpointer }) => buildWorkGraph(checkpointer, trace);
}
