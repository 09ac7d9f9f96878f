import { Command, MemorySaver, MessagesAnnotation, Send, START, StateGraph } from "@langchain/langgraph";
import type { RunnableConfig } from "@langchain/core/runnables";
import { describe, expect, it } from "vitest";
import { executeRun } from "./execute-run.js";
import { graphInputOf, graphStreamOptionsOf, toGraphCommand } from "./graph-input.js";
import { asStreamable } from "../../test/support/worker/graphs.js";
import { RecordingBridge } from "../../test/support/worker/recording-bridge.js";
import { makeRun } from "../../test/support/worker/run-record.js";

describe("graphStreamOptionsOf", () => {
  const signal = new AbortController().signal;

  it("injects thread, run and assistant ids over the client's, and strips LangGraph's internal keys", () => {
    const run = makeRun({
      metadata: { origin: "run", run_id: "spoofed" },
      config: {
        configurable: {
          model: "m",
          thread_id: "spoofed",
          __pregel_checkpointer: null,
          checkpoint_ns: "other",
          checkpoint_map: {},
        },
        metadata: { team: "core" },
      },
    });
    const options = graphStreamOptionsOf(run, ["values", "updates"], signal);
    expect(options["configurable"]).toEqual({
      model: "m",
      thread_id: run.threadId,
      run_id: run.runId,
      assistant_id: "agent",
    });
    expect(options["metadata"]).toEqual({
      origin: "run",
      team: "core",
      thread_id: run.threadId,
      run_id: run.runId,
      assistant_id: "agent",
    });
    expect(options["streamMode"]).toEqual(["values", "updates"]);
    expect(options["subgraphs"]).toBe(false);
    expect(options["signal"]).toBe(signal);
  });

  it("sets only the options that were given", () => {
    const bare = graphStreamOptionsOf(makeRun(), ["values"], signal);
    for (const key of ["tags", "recursionLimit", "context", "interruptBefore", "interruptAfter"])
      expect(bare).not.toHaveProperty(key);
    const full = graphStreamOptionsOf(
      makeRun({
        config: { tags: ["a"], recursionLimit: 7 },
        context: { user: "u" },
        interruptBefore: ["x"],
        interruptAfter: "*",
        checkpointId: "cp-1",
        streamSubgraphs: true,
      }),
      ["values"],
      signal,
    );
    expect(full).toMatchObject({
      tags: ["a"],
      recursionLimit: 7,
      context: { user: "u" },
      interruptBefore: ["x"],
      interruptAfter: "*",
      subgraphs: true,
    });
    expect((full["configurable"] as Record<string, unknown>)["checkpoint_id"]).toBe("cp-1");
  });
});

describe("graphInputOf", () => {
  it("uses the input, null when absent, and a Command when command is set", () => {
    expect(graphInputOf({ streamMode: ["values"], input: { a: 1 } })).toEqual({ a: 1 });
    expect(graphInputOf({ streamMode: ["values"] })).toBeNull();
    const command = graphInputOf({ streamMode: ["values"], input: { ignored: true }, command: { resume: "ok" } });
    expect(command).toBeInstanceOf(Command);
    expect((command as Command).resume).toBe("ok");
  });

  it("maps goto names and {node, input} sends", () => {
    const command = toGraphCommand({
      goto: ["a", { node: "b", input: { x: 1 } }] as unknown as string[],
      update: { k: 1 },
    });
    expect(command.goto).toEqual(["a", new Send("b", { x: 1 })]);
    expect(command.update).toEqual({ k: 1 });
    expect(toGraphCommand({ goto: "only" }).goto).toEqual(["only"]);
  });
});

describe("executeRun options reach the graph", () => {
  it("passes context, configurable, tags and the recursion limit to nodes", async () => {
    let seen: Record<string, unknown> = {};
    const graph = asStreamable(
      new StateGraph(MessagesAnnotation)
        .addNode("inspect", async (_state, runtime) => {
          const config = runtime as unknown as RunnableConfig & { context?: unknown };
          seen = {
            context: config.context,
            model: config.configurable?.["model"],
            runId: config.configurable?.["run_id"],
            tags: config.tags,
            recursionLimit: config.recursionLimit,
          };
          return {};
        })
        .addEdge(START, "inspect")
        .compile({ checkpointer: new MemorySaver() }),
    );
    const run = makeRun({
      input: { messages: [] },
      context: { user: "u1" },
      config: { configurable: { model: "m1" }, tags: ["t"], recursionLimit: 9 },
    });
    const outcome = await executeRun({
      run,
      graph: () => graph,
      bridge: new RecordingBridge(),
      signal: new AbortController().signal,
    });
    expect(outcome.status).toBe("success");
    expect(seen).toMatchObject({ context: { user: "u1" }, model: "m1", runId: run.runId, recursionLimit: 9 });
    expect(seen["tags"]).toEqual(expect.arrayContaining(["t"]));
  });

  it("fails with the graph's recursion error when the limit is exceeded", async () => {
    const graph = asStreamable(
      new StateGraph(MessagesAnnotation)
        .addNode("loop", async () => ({}))
        .addEdge(START, "loop")
        .addEdge("loop", "loop")
        .compile(),
    );
    const bridge = new RecordingBridge();
    const outcome = await executeRun({
      run: makeRun({ input: { messages: [] }, config: { recursionLimit: 3 } }),
      graph: () => graph,
      bridge,
      signal: new AbortController().signal,
    });
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/Recursion limit of 3/);
    expect(bridge.dataOf("error")[0]).toMatchObject({ error: "GraphRecursionError" });
  });
});
