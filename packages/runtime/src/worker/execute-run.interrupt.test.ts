import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { RunKwargs } from "../runs/types.js";
import { executeRun } from "./execute-run.js";
import type { RunOutcome } from "./run-outcome.js";
import type { StreamableGraph } from "./types.js";
import { GatedChatModel } from "../../test/support/worker/gated-chat-model.js";
import { approvalGraph, chatGraph, nestedApprovalGraph } from "../../test/support/worker/graphs.js";
import { RecordingBridge } from "../../test/support/worker/recording-bridge.js";
import { makeRun } from "../../test/support/worker/run-record.js";

type Msg = { type: string; id: string | null; content: unknown };
type State = { messages: Msg[]; decision?: string | null; __interrupt__?: { id: string; value: unknown }[] };

/** Runs graphs on one thread with one checkpointer. */
function thread(build: (checkpointer: MemorySaver) => StreamableGraph) {
  const checkpointer = new MemorySaver();
  const threadId = crypto.randomUUID();
  const graph = build(checkpointer);
  return {
    checkpointer,
    threadId,
    graph,
    async run(kwargs: Partial<RunKwargs>): Promise<{ outcome: RunOutcome; bridge: RecordingBridge }> {
      const bridge = new RecordingBridge();
      const outcome = await executeRun({
        run: makeRun({ threadId, streamMode: ["values", "updates"], ...kwargs }),
        graph: () => graph,
        bridge,
        checkpointer,
        signal: new AbortController().signal,
      });
      return { outcome, bridge };
    },
    async state(): Promise<{ values: State; next: string[] }> {
      const snapshot = await (
        graph as unknown as { getState(c: unknown): Promise<{ values: State; next: string[] }> }
      ).getState({
        configurable: { thread_id: threadId },
      });
      return snapshot;
    },
  };
}

describe("executeRun interrupts", () => {
  it("marks the thread interrupted at interrupt() and keeps __interrupt__ in values", async () => {
    const t = thread((cp) => approvalGraph(cp));
    const { outcome, bridge } = await t.run({ input: { messages: [{ role: "user", content: "go" }] } });
    expect(outcome).toEqual({ status: "success", error: null, threadStatus: "interrupted", rolledBack: false });
    const last = bridge.dataOf("values").at(-1) as State;
    expect(last.__interrupt__).toEqual([{ id: expect.any(String), value: { question: "approve?" } }]);
    expect(bridge.dataOf("updates").at(-1)).toEqual({
      __interrupt__: [{ id: expect.any(String), value: { question: "approve?" } }],
    });
    expect((await t.state()).next).toEqual(["ask"]);
  });

  it("detects the interrupt even when the client streams neither values nor updates", async () => {
    const t = thread((cp) => approvalGraph(cp));
    const { outcome, bridge } = await t.run({ streamMode: ["custom"], input: { messages: [] } });
    expect(outcome.threadStatus).toBe("interrupted");
    expect(bridge.names()).toEqual(["metadata"]);
  });

  it("continues from the interrupt with Command resume", async () => {
    const t = thread((cp) => approvalGraph(cp));
    await t.run({ input: { messages: [{ role: "user", content: "go" }] } });
    const { outcome, bridge } = await t.run({ command: { resume: "yes" } });
    expect(outcome).toEqual({ status: "success", error: null, threadStatus: "idle", rolledBack: false });
    const last = bridge.dataOf("values").at(-1) as State;
    expect(last.decision).toBe("yes");
    expect(last.messages.map((m) => m.content)).toEqual(["go", "draft ready", "decided: yes"]);
    expect((await t.state()).next).toEqual([]);
  });

  it("applies Command update and goto", async () => {
    const t = thread((cp) => approvalGraph(cp));
    await t.run({ input: { messages: [{ role: "user", content: "go" }] } });
    await t.run({ command: { resume: "yes" } });
    const { outcome, bridge } = await t.run({ command: { update: { decision: "forced" }, goto: "finish" } });
    expect(outcome.threadStatus).toBe("idle");
    const last = bridge.dataOf("values").at(-1) as State;
    expect(last.messages.at(-1)?.content).toBe("decided: forced");
  });

  it("treats interruptBefore as an interrupt and continues with a null input", async () => {
    const t = thread((cp) => chatGraph(new GatedChatModel({ tokens: ["ok"] }), cp));
    const first = await t.run({ input: { messages: [{ role: "user", content: "hi" }] }, interruptBefore: ["model"] });
    expect(first.outcome.threadStatus).toBe("interrupted");
    expect(first.bridge.dataOf("values").at(-1)).toEqual({ __interrupt__: [] });
    expect((await t.state()).next).toEqual(["model"]);
    const second = await t.run({ input: null });
    expect(second.outcome.threadStatus).toBe("idle");
    expect((await t.state()).values.messages.map((m) => m.content)).toEqual(["hi", "ok"]);
  });

  it("treats interruptAfter as an interrupt", async () => {
    const t = thread((cp) => chatGraph(new GatedChatModel({ tokens: ["ok"] }), cp));
    const { outcome } = await t.run({ input: { messages: [{ role: "user", content: "hi" }] }, interruptAfter: "*" });
    expect(outcome.threadStatus).toBe("interrupted");
  });

  it("sees an interrupt raised inside a subgraph", async () => {
    const t = thread((cp) => nestedApprovalGraph(cp));
    const { outcome } = await t.run({ input: { messages: [{ role: "user", content: "go" }] }, streamSubgraphs: true });
    expect(outcome.threadStatus).toBe("interrupted");
  });

  it("starts from an earlier checkpoint when checkpointId is given (time travel)", async () => {
    const model = new GatedChatModel({ tokens: ["again"] });
    const t = thread((cp) => chatGraph(model, cp));
    await t.run({ input: { messages: [{ role: "user", content: "one" }] } });
    // the checkpoint right after the input was applied: step 0, before the model ran
    let beforeModel: string | undefined;
    for await (const tuple of t.checkpointer.list({ configurable: { thread_id: t.threadId } })) {
      if (tuple.metadata?.step === 0) beforeModel = tuple.checkpoint.id;
    }
    expect(beforeModel).toBeDefined();
    const { outcome } = await t.run({ input: null, checkpointId: beforeModel! });
    expect(outcome.status).toBe("success");
    expect((await t.state()).values.messages.map((m) => m.content)).toEqual(["one", "again"]);
  });
});
