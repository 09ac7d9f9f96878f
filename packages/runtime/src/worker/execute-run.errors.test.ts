import { MemorySaver, START, StateGraph, MessagesAnnotation } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { RuntimeError } from "../errors.js";
import type { StreamMode } from "../runs/types.js";
import { executeRun } from "./execute-run.js";
import type { GraphFactory, StreamableGraph } from "./types.js";
import { GatedChatModel } from "../../test/support/worker/gated-chat-model.js";
import { asStreamable, chatFactory } from "../../test/support/worker/graphs.js";
import { RecordingBridge } from "../../test/support/worker/recording-bridge.js";
import { makeRun } from "../../test/support/worker/run-record.js";

class CustomError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CustomError";
  }
}

const userInput = { messages: [{ role: "user", content: "hi" }] };
const never = () => new AbortController().signal;

describe("executeRun failures", () => {
  it("publishes an error event and fails the run when a node throws", async () => {
    let afterRan = false;
    const graph = asStreamable(
      new StateGraph(MessagesAnnotation)
        .addNode("boom", async () => {
          throw new CustomError("Boo!");
        })
        .addNode("after", async () => {
          afterRan = true;
          return {};
        })
        .addEdge(START, "boom")
        .addEdge("boom", "after")
        .compile({ checkpointer: new MemorySaver() }),
    );
    const bridge = new RecordingBridge();
    const run = makeRun({ input: userInput });
    const outcome = await executeRun({ run, graph: () => graph, bridge, signal: never() });
    expect(outcome).toEqual({ status: "error", error: "Boo!", threadStatus: "error", rolledBack: false });
    expect(bridge.names()[0]).toBe("metadata");
    expect(bridge.events.at(-1)).toMatchObject({
      event: "error",
      data: { error: "CustomError", name: "CustomError", message: "Boo!" },
    });
    expect(afterRan).toBe(false);
    expect(bridge.ended.size).toBe(0);
  });

  it("rejects unsupported stream modes before calling the graph factory", async () => {
    const factory = chatFactory(new GatedChatModel({ tokens: ["x"] }));
    const bridge = new RecordingBridge();
    const run = makeRun({ streamMode: ["values", "events"] as unknown as StreamMode[], input: userInput });
    const outcome = await executeRun({ run, graph: factory, bridge, signal: never() });
    expect(outcome).toEqual({
      status: "error",
      error: "Unsupported stream mode(s): events",
      threadStatus: "error",
      rolledBack: false,
    });
    expect(factory.calls).toBe(0);
    expect(bridge.events).toEqual([
      {
        runId: run.runId,
        event: "error",
        data: expect.objectContaining({ code: "INVALID_ARGUMENT", message: "Unsupported stream mode(s): events" }),
      },
    ]);
  });

  it("treats a missing or empty stream mode list as values", async () => {
    const bridge = new RecordingBridge();
    const run = makeRun({ input: userInput });
    (run.kwargs as { streamMode?: unknown }).streamMode = undefined;
    const outcome = await executeRun({
      run,
      graph: chatFactory(new GatedChatModel({ tokens: ["x"] })),
      bridge,
      signal: never(),
    });
    expect(outcome.status).toBe("success");
    expect(bridge.names()).toContain("values");
  });

  it.each([
    [
      "throws",
      (() => {
        throw new CustomError("cannot build");
      }) as GraphFactory,
    ],
    [
      "rejects",
      (async () => {
        throw new CustomError("cannot build");
      }) as GraphFactory,
    ],
  ])("reports a factory that %s as an error after metadata", async (_label, factory) => {
    const bridge = new RecordingBridge();
    const outcome = await executeRun({ run: makeRun({ input: userInput }), graph: factory, bridge, signal: never() });
    expect(outcome).toMatchObject({ status: "error", error: "cannot build", threadStatus: "error" });
    expect(bridge.names()).toEqual(["metadata", "error"]);
    expect(bridge.dataOf("error")[0]).toEqual({ error: "CustomError", name: "CustomError", message: "cannot build" });
  });

  it("reports non-Error throws with a readable message", async () => {
    const graph: StreamableGraph = {
      stream: () => Promise.reject({ reason: "weird" }),
    };
    const bridge = new RecordingBridge();
    const outcome = await executeRun({
      run: makeRun({ input: userInput }),
      graph: () => graph,
      bridge,
      signal: never(),
    });
    expect(outcome).toMatchObject({ status: "error", error: '{"reason":"weird"}' });
    expect(bridge.dataOf("error")[0]).toEqual({ error: "Error", name: "Error", message: '{"reason":"weird"}' });
  });

  it("survives a graph whose stream throws synchronously or yields malformed items", async () => {
    const throwing: StreamableGraph = {
      stream: () => {
        throw new TypeError("sync");
      },
    };
    const outcome = await executeRun({
      run: makeRun(),
      graph: () => throwing,
      bridge: new RecordingBridge(),
      signal: never(),
    });
    expect(outcome).toMatchObject({ status: "error", error: "sync" });

    const garbage: StreamableGraph = {
      stream: async () =>
        (async function* () {
          yield "not a tuple";
          yield [42, {}];
          yield ["values", { ok: 1n }];
        })(),
    };
    const bridge = new RecordingBridge();
    const ok = await executeRun({ run: makeRun(), graph: () => garbage, bridge, signal: never() });
    expect(ok.status).toBe("success");
    expect(bridge.dataOf("values")).toEqual([{ ok: "1" }]);
  });

  it("stops the graph and fails the run when the bridge cannot publish", async () => {
    const model = new GatedChatModel({ tokens: ["a", "b", "c"] });
    const bridge = new RecordingBridge({
      failWhen: (event) => (event === "messages" ? new RuntimeError("BRIDGE_UNAVAILABLE", "redis down") : undefined),
    });
    const checkpointer = new MemorySaver();
    const run = makeRun({ streamMode: ["messages-tuple", "values"], input: userInput });
    const outcome = await executeRun({ run, graph: chatFactory(model), bridge, checkpointer, signal: never() });
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/Stream bridge publish failed for event "messages": redis down/);
    expect(model.abortObserved || model.signals[0]?.aborted).toBe(true);
    expect(bridge.names()).not.toContain("error");
  });

  it("fails the run when even the metadata event cannot be published, without calling the factory", async () => {
    const factory = chatFactory(new GatedChatModel({ tokens: ["x"] }));
    const bridge = new RecordingBridge({ failWhen: () => new Error("down") });
    const outcome = await executeRun({ run: makeRun({ input: userInput }), graph: factory, bridge, signal: never() });
    expect(outcome).toMatchObject({ status: "error", error: expect.stringContaining("down") });
    expect(factory.calls).toBe(0);
  });

  it("never throws, even when the logger throws", async () => {
    const explode = () => {
      throw new Error("logger broken");
    };
    const logger = { debug: explode, info: explode, warn: explode, error: explode };
    const graph: StreamableGraph = { stream: () => Promise.reject(new Error("graph broken")) };
    const outcome = await executeRun({
      run: makeRun(),
      graph: () => graph,
      bridge: new RecordingBridge(),
      signal: never(),
      logger,
    });
    expect(outcome.status).toBe("error");
  });
});
