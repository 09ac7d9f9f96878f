/**
 * A run's graph sees the manager's long-term store: `getStore()` inside a node
 * reads and writes the `graphStore` given to `RunManager`.
 */
import { randomUUID } from "node:crypto";
import { Annotation, END, MemorySaver, START, StateGraph, getStore } from "@langchain/langgraph";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { afterEach, describe, expect, it } from "vitest";
import { RunManager } from "./run-manager.js";
import type { GraphFactory } from "../worker/types.js";

const State = Annotation.Root({ note: Annotation<string> });

/** A graph whose one node reads an item of the store and writes one back. */
const graphFactory: GraphFactory = ({ checkpointer, store }) =>
  new StateGraph(State)
    .addNode("remember", async (state, config) => {
      const found = await getStore(config)?.get(["notes"], "seed");
      await getStore(config)?.put(["notes"], "from-run", { note: state.note, seen: found?.value["text"] });
      return { note: state.note };
    })
    .addEdge(START, "remember")
    .addEdge("remember", END)
    .compile({ ...(checkpointer === undefined ? {} : { checkpointer }), ...(store === undefined ? {} : { store }) });

const managers: RunManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.shutdown({ drain: false, timeoutMs: 2_000 });
});

describe("RunManager with a graphStore", () => {
  it("hands the store to every run's graph", async () => {
    const graphStore = new InMemoryStore();
    await graphStore.put(["notes"], "seed", { text: "seeded" });
    const manager = new RunManager({ graphs: { g: graphFactory }, checkpointer: new MemorySaver(), graphStore });
    managers.push(manager);
    const run = await manager.create({ threadId: randomUUID(), assistantId: "g", input: { note: "hi" } });
    expect((await manager.join(run.runId)).status).toBe("success");
    expect((await graphStore.get(["notes"], "from-run"))?.value).toEqual({ note: "hi", seen: "seeded" });
  });
});
