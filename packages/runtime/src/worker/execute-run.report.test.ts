import { reportRunError, reportRunStop, reportRunTokens } from "@deerflow/kernel";
import { MemorySaver, MessagesAnnotation, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { executeRun } from "./execute-run.js";
import { asStreamable } from "../../test/support/worker/graphs.js";
import { RecordingBridge } from "../../test/support/worker/recording-bridge.js";
import { makeRun } from "../../test/support/worker/run-record.js";

const userInput = { messages: [{ role: "user", content: "hi" }] };
const never = () => new AbortController().signal;

/** A one-node graph whose node reports through the run's report. */
function reportingGraph(report: (config: LangGraphRunnableConfig) => void) {
  return asStreamable(
    new StateGraph(MessagesAnnotation)
      .addNode("guard", async (_state, config) => {
        report(config);
        return { messages: [{ role: "assistant", content: "stopped" }] };
      })
      .addEdge(START, "guard")
      .compile({ checkpointer: new MemorySaver() }),
  );
}

describe("executeRun run report", () => {
  it("records the stop reason a middleware stamped on a run that succeeded", async () => {
    const graph = reportingGraph((config) => reportRunStop(config, "loop_capped"));
    const outcome = await executeRun({
      run: makeRun({ input: userInput }),
      graph: () => graph,
      bridge: new RecordingBridge(),
      signal: never(),
    });
    expect(outcome).toEqual({
      status: "success",
      error: null,
      threadStatus: "idle",
      rolledBack: false,
      stopReason: "loop_capped",
    });
  });

  it("ends a finished graph as an error when it reported one, with an error event", async () => {
    const graph = reportingGraph((config) => reportRunError(config, "no final answer"));
    const bridge = new RecordingBridge();
    const outcome = await executeRun({
      run: makeRun({ input: userInput }),
      graph: () => graph,
      bridge,
      signal: never(),
    });
    expect(outcome).toEqual({ status: "error", error: "no final answer", threadStatus: "error", rolledBack: false });
    expect(bridge.events.at(-1)).toMatchObject({ event: "error", data: { message: "no final answer" } });
  });

  it("carries the tokens the graph's model calls reported, also on a run that failed afterwards", async () => {
    const usage = { input_tokens: 12, output_tokens: 3, total_tokens: 15 };
    const counted = {
      ...usage,
      llm_call_count: 1,
      by_model: { fast: { ...usage, llm_call_count: 1 } },
    };
    const succeeded = await executeRun({
      run: makeRun({ input: userInput }),
      graph: () => reportingGraph((config) => reportRunTokens(config, usage, "fast")),
      bridge: new RecordingBridge(),
      signal: never(),
    });
    expect(succeeded).toMatchObject({ status: "success", tokenUsage: counted });
    const failed = await executeRun({
      run: makeRun({ input: userInput }),
      graph: () =>
        reportingGraph((config) => {
          reportRunTokens(config, usage, "fast");
          throw new Error("after the model call");
        }),
      bridge: new RecordingBridge(),
      signal: never(),
    });
    expect(failed).toMatchObject({ status: "error", error: "after the model call", tokenUsage: counted });
  });

  it("reports nothing for a graph that reported nothing", async () => {
    const graph = reportingGraph(() => {});
    const outcome = await executeRun({
      run: makeRun({ input: userInput }),
      graph: () => graph,
      bridge: new RecordingBridge(),
      signal: never(),
    });
    expect(outcome).toEqual({ status: "success", error: null, threadStatus: "idle", rolledBack: false });
  });
});
