import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { Checkpoint, CheckpointMetadata, PendingWrite } from "@langchain/langgraph-checkpoint";
import { createAgent, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { executeRun } from "./execute-run.js";
import { RunAbort, type GraphFactory, type RunAbortAction, type StreamableGraph } from "./types.js";
import { GatedChatModel } from "../../test/support/worker/gated-chat-model.js";
import { asStreamable, chatFactory } from "../../test/support/worker/graphs.js";
import { RecordingBridge } from "../../test/support/worker/recording-bridge.js";
import { Gate } from "../../test/support/worker/gate.js";
import { makeRun } from "../../test/support/worker/run-record.js";

const userInput = { messages: [{ role: "user", content: "hi" }] };

/** Runs the chat graph with a model that holds after one token, aborting with `action` once it holds. */
async function abortDuringModelCall(action: RunAbortAction | "foreign", extra: { timeoutMs?: number } = {}) {
  const model = new GatedChatModel({ tokens: ["Hel", "lo"], holdAfter: 1 });
  const controller = new AbortController();
  const reason = action === "foreign" ? new Error("client went away") : new RunAbort(action);
  // abort once the first token reached the bridge: the model call is in flight, holding or about to
  const bridge = new RecordingBridge({
    onPublish: (event) => {
      if (extra.timeoutMs === undefined && event.event === "messages") controller.abort(reason);
    },
  });
  const checkpointer = new MemorySaver();
  const run = makeRun({ streamMode: ["messages-tuple", "values"], input: userInput, ...extra });
  const outcome = await executeRun({ run, graph: chatFactory(model), bridge, checkpointer, signal: controller.signal });
  return { outcome, model, bridge, run, checkpointer };
}

describe("executeRun aborts", () => {
  it("interrupt: stops mid model call, the model sees its signal abort, the run is interrupted", async () => {
    const { outcome, model, bridge } = await abortDuringModelCall("interrupt");
    expect(outcome).toEqual({ status: "interrupted", error: null, threadStatus: "interrupted", rolledBack: false });
    expect(model.abortObserved).toBe(true);
    expect(model.signals[0]?.aborted).toBe(true);
    expect(bridge.names()).not.toContain("error");
    // the first token was streamed before the abort
    expect((bridge.dataOf("messages") as [{ content: string }][]).map(([m]) => m.content)).toEqual(["Hel"]);
  });

  it("treats an abort reason that is not a RunAbort as interrupt", async () => {
    const { outcome } = await abortDuringModelCall("foreign");
    expect(outcome.status).toBe("interrupted");
  });

  it("timeout: kwargs.timeoutMs aborts the run on its own with status timeout and an error event", async () => {
    const { outcome, bridge } = await abortDuringModelCall("timeout", { timeoutMs: 30 });
    expect(outcome).toEqual({
      status: "timeout",
      error: "Run exceeded its timeout of 30 ms",
      threadStatus: "error",
      rolledBack: false,
    });
    expect(bridge.events.at(-1)).toMatchObject({
      event: "error",
      data: { error: "TimeoutError", name: "TimeoutError", message: "Run exceeded its timeout of 30 ms" },
    });
  });

  it("timeout requested by the caller's signal uses the same outcome", async () => {
    const { outcome } = await abortDuringModelCall("timeout");
    expect(outcome).toMatchObject({ status: "timeout", error: "Run exceeded its timeout" });
  });

  it("shutdown: interrupted with 'Server shutting down'", async () => {
    const { outcome } = await abortDuringModelCall("shutdown");
    expect(outcome).toEqual({
      status: "interrupted",
      error: "Server shutting down",
      threadStatus: "interrupted",
      rolledBack: false,
    });
  });

  it("ownership_lost: error 'Run ownership lost' without an error event", async () => {
    const { outcome, bridge } = await abortDuringModelCall("ownership_lost");
    expect(outcome).toEqual({ status: "error", error: "Run ownership lost", threadStatus: "error", rolledBack: false });
    expect(bridge.names()).not.toContain("error");
  });

  it("rollback mid model call restores the thread (here: to empty)", async () => {
    const { outcome, checkpointer, run } = await abortDuringModelCall("rollback");
    expect(outcome).toEqual({ status: "error", error: "Rolled back by user", threadStatus: "idle", rolledBack: true });
    expect(await checkpointer.getTuple({ configurable: { thread_id: run.threadId } })).toBeUndefined();
  });

  it("reaches a tool call in flight: the tool sees config.signal abort", async () => {
    const gate = new Gate(1);
    let toolSignal: AbortSignal | undefined;
    const slowSearch = tool(
      async ({ q }: { q: string }, config: RunnableConfig) => {
        toolSignal = config.signal;
        await gate.pass(config.signal);
        return `found ${q}`;
      },
      {
        name: "slow_search",
        description: "Searches slowly",
        schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      },
    );
    const model = fakeModel()
      .respondWithTools([{ name: "slow_search", args: { q: "x" }, id: "call_1" }])
      .respond(new AIMessage("done"));
    const controller = new AbortController();
    void gate.entered.then(() => controller.abort(new RunAbort("interrupt")));
    const outcome = await executeRun({
      run: makeRun({ streamMode: ["updates"], input: userInput }),
      graph: (ctx) =>
        asStreamable(
          createAgent({ model, tools: [slowSearch], ...(ctx.checkpointer ? { checkpointer: ctx.checkpointer } : {}) }),
        ),
      bridge: new RecordingBridge(),
      checkpointer: new MemorySaver(),
      signal: controller.signal,
    });
    expect(outcome.status).toBe("interrupted");
    expect(gate.sawAbort).toBe(true);
    expect(toolSignal?.aborted).toBe(true);
    expect(model.callCount).toBe(1);
  });

  it("does not call the factory when the signal is already aborted, but still reports the action", async () => {
    const factory = chatFactory(new GatedChatModel({ tokens: ["x"] }));
    const controller = new AbortController();
    controller.abort(new RunAbort("rollback"));
    const bridge = new RecordingBridge();
    const outcome = await executeRun({
      run: makeRun({ input: userInput }),
      graph: factory,
      bridge,
      checkpointer: new MemorySaver(),
      signal: controller.signal,
    });
    expect(factory.calls).toBe(0);
    expect(outcome).toEqual({ status: "error", error: "Rolled back by user", threadStatus: "idle", rolledBack: true });
    expect(bridge.names()).toEqual(["metadata"]);
  });

  it("stops waiting for a graph building forever when the run is aborted", async () => {
    const controller = new AbortController();
    const factory: GraphFactory = (ctx) => {
      queueMicrotask(() => controller.abort(new RunAbort("interrupt")));
      return new Promise<StreamableGraph>((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => reject(new Error("too late"))),
      );
    };
    const outcome = await executeRun({
      run: makeRun(),
      graph: factory,
      bridge: new RecordingBridge(),
      signal: controller.signal,
    });
    expect(outcome.status).toBe("interrupted");
  });

  it("returns after the grace period from a graph that ignores its signal", async () => {
    const controller = new AbortController();
    let returned = false;
    const stubborn: StreamableGraph = {
      stream: async () => ({
        [Symbol.asyncIterator]: () => ({
          next: () => {
            queueMicrotask(() => controller.abort(new RunAbort("interrupt")));
            return new Promise<IteratorResult<unknown>>(() => {});
          },
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        }),
      }),
    };
    const outcome = await executeRun({
      run: makeRun(),
      graph: () => stubborn,
      bridge: new RecordingBridge(),
      signal: controller.signal,
      abortGraceMs: 5,
    });
    expect(outcome.status).toBe("interrupted");
    expect(returned).toBe(true);
  });

  it("waits for checkpoint writes still in flight before it returns", async () => {
    /** A saver whose writes take a few event-loop turns, so LangGraph queues them behind the run. */
    class SlowSaver extends MemorySaver {
      started = 0;
      finished = 0;
      private async slow<T>(work: () => Promise<T>): Promise<T> {
        this.started++;
        for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
        try {
          return await work();
        } finally {
          this.finished++;
        }
      }
      override put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata) {
        return this.slow(() => super.put(config, checkpoint, metadata));
      }
      override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string) {
        return this.slow(() => super.putWrites(config, writes, taskId));
      }
    }
    const saver = new SlowSaver();
    const gate = new Gate(1);
    const graph = (checkpointer: unknown) =>
      asStreamable(
        new StateGraph(MessagesAnnotation)
          .addNode("a", async () => ({ messages: [new AIMessage("a")] }))
          .addNode("b", async (_s, config) => {
            await gate.pass(config.signal);
            return {};
          })
          .addEdge(START, "a")
          .addEdge("a", "b")
          .compile({ checkpointer: checkpointer as MemorySaver }),
      );
    const controller = new AbortController();
    void gate.entered.then(() => controller.abort(new RunAbort("interrupt")));
    const outcome = await executeRun({
      run: makeRun({ input: userInput }),
      graph: (ctx) => graph(ctx.checkpointer),
      bridge: new RecordingBridge(),
      checkpointer: saver,
      signal: controller.signal,
    });
    expect(outcome.status).toBe("interrupted");
    expect(saver.started).toBeGreaterThan(0);
    expect(saver.finished).toBe(saver.started);
    await new Promise((resolve) => setImmediate(resolve));
    expect(saver.finished).toBe(saver.started);
  });
});
