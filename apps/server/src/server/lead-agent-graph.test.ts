import { createLeadAgent, staticModels } from "@deerflow/agent";
import type { GraphFactoryContext } from "@deerflow/runtime";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { leadAgentGraphFactory } from "./lead-agent-graph.js";

/** A view of `saver` counting the checkpoints written through it (as the runtime's per-run view counts writes). */
function countingView(saver: BaseCheckpointSaver): { view: BaseCheckpointSaver; puts: () => number } {
  let puts = 0;
  const view = new Proxy(saver, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      return prop === "put" ? (...args: unknown[]) => (puts++, method(...args)) : method;
    },
  });
  return { view, puts: () => puts };
}

function contextOf(runId: string, threadId: string, checkpointer: BaseCheckpointSaver): GraphFactoryContext {
  const run = { runId, threadId, assistantId: "lead_agent", kwargs: {} } as unknown as GraphFactoryContext["run"];
  return { run, checkpointer, store: undefined, signal: new AbortController().signal };
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}

describe("leadAgentGraphFactory", () => {
  it("streams every run on the one compiled agent, with the run's own checkpointer view", async () => {
    const model = fakeModel();
    for (let i = 0; i < 3; i++) model.respond(new AIMessage(`answer ${i}`));
    const saver = new MemorySaver();
    const agent = await createLeadAgent({ models: staticModels({ fake: model }), checkpointer: saver });
    const factory = leadAgentGraphFactory(agent);

    const views = [countingView(saver), countingView(saver), countingView(saver)];
    for (const [i, { view }] of views.entries()) {
      const graph = await factory(contextOf(`run-${i}`, "thread-1", view));
      await drain(
        await graph.stream(
          { messages: [new HumanMessage(`q${i}`)] },
          { configurable: { thread_id: "thread-1", run_id: `run-${i}` }, streamMode: ["values"] },
        ),
      );
    }

    // Each run's checkpoints went through its own view, into the saver the state routes read.
    for (const { puts } of views) expect(puts()).toBeGreaterThan(0);
    const state = await agent.graph.getState({ configurable: { thread_id: "thread-1" } });
    expect((state.values.messages as BaseMessage[]).map((m) => m.content)).toEqual([
      "q0",
      "answer 0",
      "q1",
      "answer 1",
      "q2",
      "answer 2",
    ]);
  });
});
