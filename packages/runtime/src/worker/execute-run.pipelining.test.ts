/**
 * The worker keeps a bounded window of publishes in flight instead of
 * awaiting each one, and still decides the run's outcome only after every
 * publish settled, in order, with today's failure rule.
 */
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { StreamBridge, StreamItem } from "../stream/stream-bridge.js";
import { executeRun } from "./execute-run.js";
import type { RunOutcome } from "./run-outcome.js";
import { Gate } from "../../test/support/worker/gate.js";
import { asStreamable } from "../../test/support/worker/graphs.js";
import { RecordingBridge } from "../../test/support/worker/recording-bridge.js";
import { makeRun } from "../../test/support/worker/run-record.js";

/** One publish the test settles by hand. */
interface HeldPublish {
  event: string;
  data: unknown;
  settled: boolean;
  resolve(id: string): void;
  reject(error: Error): void;
}

/** A bridge whose publishes settle when the test says so (`metadata` at once). */
class HeldBridge implements StreamBridge {
  readonly supportsCrossProcess = false;
  readonly calls: HeldPublish[] = [];
  private seq = 0;

  publish(_runId: string, event: string, data: unknown): Promise<string> {
    if (event === "metadata") return Promise.resolve(`1-${this.seq++}`);
    return new Promise<string>((resolve, reject) => {
      const call: HeldPublish = {
        event,
        data,
        settled: false,
        resolve: (id) => {
          call.settled = true;
          resolve(id);
        },
        reject: (error) => {
          call.settled = true;
          reject(error);
        },
      };
      this.calls.push(call);
    });
  }

  /** Publishes started and not yet settled. */
  outstanding(): number {
    return this.calls.filter((call) => !call.settled).length;
  }

  /** Resolves the oldest `count` unsettled publishes, in order. */
  release(count = Infinity): void {
    for (const call of this.calls) {
      if (count <= 0) return;
      if (call.settled) continue;
      call.resolve(`1-${this.seq++}`);
      count -= 1;
    }
  }

  async publishEnd(): Promise<void> {}
  async *subscribe(): AsyncIterable<StreamItem> {}
  async exists(): Promise<boolean> {
    return true;
  }
  async cleanup(): Promise<void> {}
  async close(): Promise<void> {}
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Waits (event-loop turns, not wall-clock) until `condition` holds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    if (condition()) return;
    await turn();
  }
  throw new Error(`never happened: ${what}`);
}

/** Gives the worker many chances to run ahead. */
async function settleDown(): Promise<void> {
  for (let i = 0; i < 50; i++) await turn();
}

/** START → emit → END: `emit` writes `count` custom events `{i}`, optionally holding at `gate` after `holdAfter` of them. */
function customGraph(count: number, options: { gate?: Gate; holdAfter?: number } = {}) {
  const State = Annotation.Root({ n: Annotation<number> });
  return asStreamable(
    new StateGraph(State)
      .addNode("emit", async (_state, config) => {
        for (let i = 0; i < count; i++) {
          if (i === options.holdAfter) await options.gate?.pass(config.signal);
          config.writer?.({ i });
        }
        return {};
      })
      .addEdge(START, "emit")
      .addEdge("emit", END)
      .compile(),
  );
}

function track(promise: Promise<RunOutcome>): { outcome: RunOutcome | undefined; done: Promise<RunOutcome> } {
  const state: { outcome: RunOutcome | undefined; done: Promise<RunOutcome> } = { outcome: undefined, done: promise };
  void promise.then((outcome) => (state.outcome = outcome));
  return state;
}

const never = () => new AbortController().signal;

describe("executeRun publish window", () => {
  it("keeps up to maxInFlightPublishes publishes in flight, then waits for the oldest", async () => {
    const bridge = new HeldBridge();
    const run = makeRun({ streamMode: ["custom"], input: { n: 1 } });
    const running = track(
      executeRun({ run, graph: () => customGraph(40), bridge, signal: never(), maxInFlightPublishes: 8 }),
    );
    await until(() => bridge.calls.length === 8, "8 publishes in flight");
    await settleDown();
    expect(bridge.calls.length).toBe(8);
    bridge.release(1);
    await until(() => bridge.calls.length === 9, "one more publish once the oldest settled");
    await settleDown();
    expect(bridge.calls.length).toBe(9);
    expect(bridge.outstanding()).toBe(8);
    while (running.outcome === undefined) {
      bridge.release();
      await turn();
    }
    expect(running.outcome).toEqual({ status: "success", error: null, threadStatus: "idle", rolledBack: false });
    expect(bridge.calls.map((call) => call.data)).toEqual(Array.from({ length: 40 }, (_, i) => ({ i })));
  });

  it("with the default window the graph streams on while every publish is pending; the outcome waits for all of them", async () => {
    const bridge = new HeldBridge();
    const running = track(
      executeRun({
        run: makeRun({ streamMode: ["custom"], input: { n: 1 } }),
        graph: () => customGraph(100),
        bridge,
        signal: never(),
      }),
    );
    await until(() => bridge.calls.length === 100, "all 100 publishes started");
    await settleDown();
    expect(bridge.outstanding()).toBe(100);
    expect(running.outcome, "decided before its events were published").toBeUndefined();
    bridge.release(99);
    await settleDown();
    expect(running.outcome, "decided before the last event was published").toBeUndefined();
    bridge.release();
    expect(await running.done).toMatchObject({ status: "success" });
    expect(bridge.calls.map((call) => (call.data as { i: number }).i)).toEqual(
      Array.from({ length: 100 }, (_, i) => i),
    );
  });

  it("maxInFlightPublishes 1 awaits each publish, as before", async () => {
    const bridge = new HeldBridge();
    const running = track(
      executeRun({
        run: makeRun({ streamMode: ["custom"], input: { n: 1 } }),
        graph: () => customGraph(5),
        bridge,
        signal: never(),
        maxInFlightPublishes: 1,
      }),
    );
    for (let n = 1; n <= 5; n++) {
      await until(() => bridge.calls.length === n, `publish ${n}`);
      await settleDown();
      expect(bridge.calls.length).toBe(n);
      bridge.release(1);
    }
    expect(await running.done).toMatchObject({ status: "success" });
  });

  it("a publish that fails while later ones are in flight stops the graph; the run fails with the first failure once all settled", async () => {
    const bridge = new HeldBridge();
    const gate = new Gate();
    const run = makeRun({ streamMode: ["custom"], input: { n: 1 } });
    const running = track(
      executeRun({ run, graph: () => customGraph(10, { gate, holdAfter: 5 }), bridge, signal: never() }),
    );
    await gate.entered;
    await until(() => bridge.calls.length === 5, "the five events before the hold");
    bridge.release(2);
    (bridge.calls[2] as HeldPublish).reject(new Error("boom"));
    (bridge.calls[3] as HeldPublish).reject(new Error("later failure"));
    await until(() => gate.sawAbort, "the graph to see its signal abort");
    await settleDown();
    expect(running.outcome, "decided while a publish is still in flight").toBeUndefined();
    bridge.release();
    const outcome = await running.done;
    expect(outcome).toEqual({
      status: "error",
      error: 'Stream bridge publish failed for event "custom": boom',
      threadStatus: "error",
      rolledBack: false,
    });
    // Nothing the graph produced after the hold was published, and no error event.
    expect(bridge.calls.map((call) => call.event)).toEqual(Array(5).fill("custom"));
  });

  it("a publish refused at once is the last one: no later event is published", async () => {
    const bridge = new RecordingBridge({
      failWhen: (event, data) =>
        event === "custom" && (data as { i: number }).i === 3 ? new Error("not serialisable") : undefined,
    });
    const outcome = await executeRun({
      run: makeRun({ streamMode: ["custom"], input: { n: 1 } }),
      graph: () => customGraph(50),
      bridge,
      signal: never(),
    });
    expect(outcome).toMatchObject({
      status: "error",
      error: 'Stream bridge publish failed for event "custom": not serialisable',
    });
    expect(bridge.events.map((e) => [e.event, e.data])).toEqual([
      ["metadata", expect.anything()],
      ["custom", { i: 0 }],
      ["custom", { i: 1 }],
      ["custom", { i: 2 }],
    ]);
  });

  it("an interrupt with publishes in flight waits for them, then reports the interrupt", async () => {
    const bridge = new HeldBridge();
    const gate = new Gate();
    const controller = new AbortController();
    const running = track(
      executeRun({
        run: makeRun({ streamMode: ["custom"], input: { n: 1 } }),
        graph: () => customGraph(10, { gate, holdAfter: 4 }),
        bridge,
        signal: controller.signal,
      }),
    );
    await gate.entered;
    await until(() => bridge.calls.length === 4, "four events in flight");
    controller.abort();
    await until(() => gate.sawAbort, "the graph to see the abort");
    await settleDown();
    expect(running.outcome).toBeUndefined();
    bridge.release();
    expect(await running.done).toEqual({
      status: "interrupted",
      error: null,
      threadStatus: "interrupted",
      rolledBack: false,
    });
    expect(bridge.calls).toHaveLength(4);
  });
});
