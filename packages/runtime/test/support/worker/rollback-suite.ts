/**
 * Rollback behaviour every checkpointer must give the worker: declared once,
 * run against MemorySaver, the SQLite saver and the PostgreSQL saver.
 */
import { AIMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { END, interrupt, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { RunKwargs } from "../../../src/runs/types.js";
import { executeRun } from "../../../src/worker/execute-run.js";
import { restoreThreadCheckpoint } from "../../../src/worker/rollback.js";
import { RunAbort, type StreamableGraph } from "../../../src/worker/types.js";
import { Gate } from "./gate.js";
import { ApprovalState, asStreamable } from "./graphs.js";
import { RecordingBridge } from "./recording-bridge.js";
import { makeRun } from "./run-record.js";

/** START → prep (adds a message) → slow (waits at the gate, then answers) → END; `counter` numbers the answers. */
function twoStepGraph(checkpointer: BaseCheckpointSaver | undefined, gate: Gate, counter = { n: 0 }): StreamableGraph {
  return asStreamable(
    new StateGraph(MessagesAnnotation)
      .addNode("prep", async () => ({ messages: [new AIMessage(`prep ${++counter.n}`)] }))
      .addNode("slow", async (_state, config) => {
        await gate.pass(config.signal);
        return { messages: [new AIMessage(`answer ${counter.n}`)] };
      })
      .addEdge(START, "prep")
      .addEdge("prep", "slow")
      .addEdge("slow", END)
      .compile(checkpointer ? { checkpointer } : {}),
  );
}

/** START → ask (interrupt) → finish (waits at the gate) → END. */
function approvalWithSlowFinish(checkpointer: BaseCheckpointSaver | undefined, gate: Gate): StreamableGraph {
  return asStreamable(
    new StateGraph(ApprovalState)
      .addNode("ask", async () => ({ decision: interrupt({ question: "approve?" }) as string }))
      .addNode("finish", async (state, config) => {
        await gate.pass(config.signal);
        return { messages: [new AIMessage(`decided: ${state.decision}`)] };
      })
      .addEdge(START, "ask")
      .addEdge("ask", "finish")
      .addEdge("finish", END)
      .compile(checkpointer ? { checkpointer } : {}),
  );
}

type Snapshot = { values: Record<string, unknown>; next: string[] };

function getState(graph: StreamableGraph, threadId: string): Promise<Snapshot> {
  return (graph as unknown as { getState(c: unknown): Promise<Snapshot> }).getState({
    configurable: { thread_id: threadId },
  });
}

function contents(snapshot: Snapshot): unknown[] {
  return ((snapshot.values["messages"] ?? []) as { content: unknown }[]).map((m) => m.content);
}

/** Declares the rollback tests for one checkpointer; `open` runs in each test (inside beforeAll-created resources). */
export function describeRollback(
  name: string,
  open: () => BaseCheckpointSaver,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`rollback with ${name}`, () => {
    type Build = (checkpointer: BaseCheckpointSaver | undefined) => StreamableGraph;

    /** Executes a run whose graph is compiled, as in production, with the checkpointer the worker hands to the factory. */
    async function execute(
      checkpointer: BaseCheckpointSaver,
      build: Build,
      threadId: string,
      kwargs: Partial<RunKwargs>,
      abortWhen?: Promise<void>,
    ) {
      const controller = new AbortController();
      void abortWhen?.then(() => controller.abort(new RunAbort("rollback")));
      const run = makeRun({ threadId, ...kwargs });
      const outcome = await executeRun({
        run,
        graph: (ctx) => build(ctx.checkpointer),
        bridge: new RecordingBridge(),
        checkpointer,
        signal: controller.signal,
      });
      return { run, outcome };
    }

    it("restores the pre-run state, keeps the history, and the next run continues from there", async () => {
      const checkpointer = open();
      const threadId = crypto.randomUUID();
      const counter = { n: 0 };
      let gate = new Gate(0);
      const build: Build = (cp) => twoStepGraph(cp, gate, counter);
      const first = await execute(checkpointer, build, threadId, {
        input: { messages: [{ role: "user", content: "one" }] },
      });
      expect(first.outcome.status).toBe("success");
      const before = await getState(build(checkpointer), threadId);
      expect(contents(before)).toEqual(["one", "prep 1", "answer 1"]);

      gate = new Gate(1);
      const second = await execute(
        checkpointer,
        build,
        threadId,
        { input: { messages: [{ role: "user", content: "two" }] } },
        gate.entered,
      );
      expect(second.outcome).toEqual({
        status: "error",
        error: "Rolled back by user",
        threadStatus: "idle",
        rolledBack: true,
      });
      expect(gate.sawAbort).toBe(true);

      const after = await getState(build(checkpointer), threadId);
      expect(after.values).toEqual(before.values);
      expect(after.next).toEqual([]);

      // the rolled-back run's checkpoints remain in history, with what it did
      const history: { runId: unknown; messages: number }[] = [];
      for await (const tuple of checkpointer.list({ configurable: { thread_id: threadId, checkpoint_ns: "" } })) {
        const messages = (tuple.checkpoint.channel_values["messages"] ?? []) as unknown[];
        history.push({
          runId: (tuple.metadata as Record<string, unknown> | undefined)?.["run_id"],
          messages: messages.length,
        });
      }
      expect(history.some((h) => h.runId === second.run.runId && h.messages === 5)).toBe(true);

      const third = await execute(checkpointer, build, threadId, {
        input: { messages: [{ role: "user", content: "three" }] },
      });
      expect(third.outcome.status).toBe("success");
      expect(contents(await getState(build(checkpointer), threadId))).toEqual([
        "one",
        "prep 1",
        "answer 1",
        "three",
        "prep 3",
        "answer 3",
      ]);
    });

    it("resets a thread that had no checkpoint before the run", async () => {
      const checkpointer = open();
      const threadId = crypto.randomUUID();
      let gate = new Gate(1);
      const counter = { n: 0 };
      const build: Build = (cp) => twoStepGraph(cp, gate, counter);
      const { outcome } = await execute(
        checkpointer,
        build,
        threadId,
        { input: { messages: [{ role: "user", content: "one" }] } },
        gate.entered,
      );
      expect(outcome).toMatchObject({ status: "error", rolledBack: true });
      expect(await checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } })).toBeUndefined();
      gate = new Gate(0);
      const next = await execute(checkpointer, build, threadId, {
        input: { messages: [{ role: "user", content: "fresh" }] },
      });
      expect(next.outcome.status).toBe("success");
      expect(contents(await getState(build(checkpointer), threadId))).toEqual(["fresh", "prep 2", "answer 2"]);
    });

    it("restores an interrupted thread, which can then be resumed again", async () => {
      const checkpointer = open();
      const threadId = crypto.randomUUID();
      const gate = new Gate(1);
      const build: Build = (cp) => approvalWithSlowFinish(cp, gate);
      const first = await execute(checkpointer, build, threadId, {
        input: { messages: [{ role: "user", content: "go" }] },
      });
      expect(first.outcome.threadStatus).toBe("interrupted");
      const before = await getState(build(checkpointer), threadId);

      const resumed = await execute(checkpointer, build, threadId, { command: { resume: "yes" } }, gate.entered);
      expect(resumed.outcome).toMatchObject({ status: "error", rolledBack: true, threadStatus: "interrupted" });
      const after = await getState(build(checkpointer), threadId);
      expect(after.values).toEqual(before.values);
      expect(after.next).toEqual(["ask"]);

      const again = await execute(checkpointer, build, threadId, { command: { resume: "no" } });
      expect(again.outcome).toMatchObject({ status: "success", threadStatus: "idle" });
      const final = await getState(build(checkpointer), threadId);
      expect(final.values["decision"]).toBe("no");
      expect(contents(final)).toEqual(["go", "decided: no"]);
    });

    it("writes the copy as a newer head with source update, the next step and fresh channel versions", async () => {
      const checkpointer = open();
      const threadId = crypto.randomUUID();
      const counter = { n: 0 };
      const build: Build = (cp) => twoStepGraph(cp, new Gate(0), counter);
      await execute(checkpointer, build, threadId, { input: { messages: [{ role: "user", content: "a" }] } });
      const pre = (await checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } }))!;
      await execute(checkpointer, build, threadId, { input: { messages: [{ role: "user", content: "b" }] } });
      const head = (await checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } }))!;
      const result = await restoreThreadCheckpoint(checkpointer, threadId, pre.checkpoint.id);
      const restored = (await checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } }))!;
      expect(result).toEqual({ action: "restored", checkpointId: restored.checkpoint.id });
      expect(restored.checkpoint.id > head.checkpoint.id).toBe(true);
      expect(restored.metadata).toMatchObject({ source: "update", step: (head.metadata?.step ?? 0) + 1 });
      expect(restored.parentConfig?.configurable?.["checkpoint_id"]).toBe(head.checkpoint.id);
      expect(restored.checkpoint.channel_values).toEqual(pre.checkpoint.channel_values);
      const headMax = Math.max(
        ...Object.values(head.checkpoint.channel_versions).map((v) => Number.parseFloat(String(v))),
      );
      for (const version of Object.values(restored.checkpoint.channel_versions))
        expect(Number.parseFloat(String(version))).toBeGreaterThan(headMax);
      expect(contents(await getState(build(checkpointer), threadId))).toEqual(["a", "prep 1", "answer 1"]);
      // and the thread goes on from the restored state
      await execute(checkpointer, build, threadId, { input: { messages: [{ role: "user", content: "c" }] } });
      expect(contents(await getState(build(checkpointer), threadId))).toEqual([
        "a",
        "prep 1",
        "answer 1",
        "c",
        "prep 3",
        "answer 3",
      ]);
    });

    it("fails loudly when the pre-run checkpoint no longer exists", async () => {
      const checkpointer = open();
      const threadId = crypto.randomUUID();
      await execute(checkpointer, (cp) => twoStepGraph(cp, new Gate(0)), threadId, { input: { messages: [] } });
      await expect(
        restoreThreadCheckpoint(checkpointer, threadId, "1ef00000-0000-6000-8000-000000000000"),
      ).rejects.toThrow(/no longer exists/);
    });
  });
}
