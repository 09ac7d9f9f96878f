/**
 * The LangGraph API driven by the real SDK clients (1.15 and 2.0.0) against a
 * listening gateway: assistants, threads, streaming, resume, join, wait,
 * thread state, interrupts, stateless runs, run records.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AGENT_ID,
  SDKS,
  SLOW_ID,
  collect,
  eventually,
  startServer,
  type SdkClient,
  type SdkEvent,
  type TestServer,
} from "../support/langgraph/server.js";
import { openRaw } from "../support/langgraph/raw-sse.js";

type Message = { type: string; content: unknown; id?: string; tool_calls?: unknown[] };
type Values = { messages: Message[] };

const human = (content: string) => ({ messages: [{ role: "user", content }] });

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return (err as { status?: number }).status;
  }
}

function lastMessage(values: unknown): Message | undefined {
  return (values as Values).messages.at(-1);
}

describe.each(SDKS)("LangGraph API with %s", (_name, makeClient) => {
  let server: TestServer;
  let client: SdkClient;

  beforeAll(async () => {
    server = await startServer({ heartbeatMs: 20 });
    client = makeClient(server.apiUrl);
  });

  afterAll(async () => {
    await server.close();
  });

  describe("assistants", () => {
    it("searches by graph id, metadata and page", async () => {
      expect((await client.assistants.search()).map((a) => a.assistant_id)).toEqual([AGENT_ID, SLOW_ID]);
      expect((await client.assistants.search({ graphId: "slow" })).map((a) => a.name)).toEqual(["Slow worker"]);
      expect((await client.assistants.search({ metadata: { kind: "chat" } })).map((a) => a.graph_id)).toEqual([
        "agent",
      ]);
      expect((await client.assistants.search({ limit: 1, offset: 1 })).map((a) => a.assistant_id)).toEqual([SLOW_ID]);
    });

    it("gets an assistant by id or graph id, and 404s an unknown one", async () => {
      const byGraph = await client.assistants.get("agent");
      expect(byGraph).toMatchObject({
        assistant_id: AGENT_ID,
        graph_id: "agent",
        name: "Agent",
        metadata: { created_by: "system", kind: "chat" },
        version: 1,
      });
      expect((await client.assistants.get(SLOW_ID)).graph_id).toBe("slow");
      expect(await statusOf(client.assistants.get("nope"))).toBe(404);
    });

    it("draws the graph", async () => {
      const graph = await client.assistants.getGraph("agent");
      expect(graph.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(["notify", "model", "tools", "review"]));
      expect(graph.edges.length).toBeGreaterThan(0);
    });
  });

  describe("threads", () => {
    it("creates, gets, searches, updates and deletes a thread", async () => {
      const owner = randomUUID();
      const thread = await client.threads.create({ metadata: { owner } });
      expect(thread).toMatchObject({ status: "idle", metadata: { owner }, values: {}, interrupts: {} });

      expect(await client.threads.create({ threadId: thread.thread_id, ifExists: "do_nothing" })).toMatchObject({
        thread_id: thread.thread_id,
        metadata: { owner },
      });
      expect(await statusOf(client.threads.create({ threadId: thread.thread_id }))).toBe(409);

      expect(await client.threads.get(thread.thread_id)).toMatchObject({
        thread_id: thread.thread_id,
        metadata: { owner },
      });
      expect((await client.threads.search({ metadata: { owner } })).map((t) => t.thread_id)).toEqual([
        thread.thread_id,
      ]);

      const updated = await client.threads.update(thread.thread_id, { metadata: { topic: "weather" } });
      expect(updated.metadata).toEqual({ owner, topic: "weather" });

      await client.threads.delete(thread.thread_id);
      expect(await statusOf(client.threads.get(thread.thread_id))).toBe(404);
      expect(await client.threads.search({ metadata: { owner } })).toEqual([]);
    });

    it("reports values, status and the graph's ids after a run", async () => {
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, "agent", { input: human("hi") });
      const got = await client.threads.get(thread.thread_id);
      expect(got.status).toBe("idle");
      expect(got.metadata).toMatchObject({ graph_id: "agent", assistant_id: AGENT_ID });
      expect((got.values as Values).messages.map((m) => m.content)).toEqual(["hi", "You said: hi"]);
    });
  });

  describe("streaming", () => {
    it("streams values, updates, messages-tuple and custom: metadata first, end last", async () => {
      const thread = await client.threads.create();
      let created: { run_id: string; thread_id?: string | undefined } | undefined;
      const events = await collect(
        client.runs.stream(thread.thread_id, "agent", {
          input: human("hello there friend"),
          streamMode: ["values", "updates", "messages-tuple", "custom"],
          onRunCreated: (meta) => void (created = meta),
        }),
      );
      expect(events[0]?.event).toBe("metadata");
      expect(events[0]?.data).toMatchObject({ run_id: created?.run_id, thread_id: thread.thread_id, attempt: 1 });
      expect(created?.thread_id).toBe(thread.thread_id);
      expect(events.at(-1)).toMatchObject({ event: "end", data: null });
      expect(new Set(events.map((e) => e.event))).toEqual(
        new Set(["metadata", "values", "updates", "messages", "custom", "end"]),
      );
      expect(events.filter((e) => e.event === "custom").map((e) => e.data)).toEqual([
        { progress: "thinking", messages: 1 },
      ]);
      expect(events.filter((e) => e.event === "updates").map((e) => Object.keys(e.data as object)[0])).toEqual([
        "notify",
        "model",
      ]);

      // Token chunks of one answer share one id, which is the final message's id.
      const chunks = events
        .filter((e) => e.event === "messages")
        .map((e) => e.data as [Message, Record<string, unknown>]);
      expect(chunks.map(([m]) => m.content).join("")).toBe("You said: hello there friend");
      expect(chunks.length).toBeGreaterThan(1);
      expect(new Set(chunks.map(([m]) => m.id)).size).toBe(1);
      expect(chunks[0]?.[1]).toMatchObject({ langgraph_node: "model" });
      const finalValues = events.filter((e) => e.event === "values").at(-1)?.data;
      expect(lastMessage(finalValues)).toMatchObject({
        type: "ai",
        content: "You said: hello there friend",
        id: chunks[0]?.[0].id,
      });

      // Every run event carries an increasing, resumable id.
      const ids = events.slice(0, -1).map((e) => e.id ?? "");
      expect(ids.every((id) => /^\d+-\d+$/.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      expect((await client.runs.get(thread.thread_id, created?.run_id ?? "")).status).toBe("success");
    });

    it("streams a tool call and the tool's answer", async () => {
      const thread = await client.threads.create();
      const events = await collect(
        client.runs.stream(thread.thread_id, "agent", {
          input: human("what is the weather?"),
          streamMode: "messages-tuple",
        }),
      );
      const messages = events.filter((e) => e.event === "messages").map((e) => (e.data as [Message])[0]);
      expect(messages.find((m) => (m.tool_calls ?? []).length > 0)?.tool_calls).toEqual([
        expect.objectContaining({ name: "get_weather", args: { city: "Paris" } }),
      ]);
      expect(messages.some((m) => m.type === "tool" && m.content === "sunny in Paris")).toBe(true);
      expect(
        messages
          .filter((m) => m.type === "ai")
          .map((m) => m.content)
          .join(""),
      ).toBe("The weather is sunny in Paris.");
    });

    it("yields no phantom events between heartbeats", async () => {
      const thread = await client.threads.create();
      const events: SdkEvent[] = [];
      let runId = "";
      const consumed = (async () => {
        for await (const part of client.runs.stream(thread.thread_id, "slow", {
          input: human("hold on"),
          streamMode: ["values", "custom"],
          onRunCreated: (meta) => void (runId = meta.run_id),
        })) {
          events.push(part as SdkEvent);
        }
      })();
      await eventually(
        async () => (server.gates.waiting(thread.thread_id) === 1 && runId !== "" ? true : undefined),
        "the run to hold",
      );
      // A second client on the same run proves heartbeats went out while the SDK's stream was idle.
      const raw = await openRaw(server.origin, `/api/threads/${thread.thread_id}/runs/${runId}/stream`, {
        headers: { "last-event-id": "-1" },
      });
      await raw.until((t) => t.split(": heartbeat\n").length > 3, "three heartbeats");
      server.gates.release(thread.thread_id);
      await consumed;
      await raw.done();
      expect(events.map((e) => e.event)).toEqual(["metadata", "values", "custom", "values", "custom", "values", "end"]);
      expect(events.slice(0, -1).every((e) => e.data !== null)).toBe(true);
    });

    it("reports a failing graph with an error event and status error", async () => {
      const thread = await client.threads.create();
      let runId = "";
      const events = await collect(
        client.runs.stream(thread.thread_id, "agent", {
          input: human("please fail"),
          onRunCreated: (m) => void (runId = m.run_id),
        }),
      );
      const error = events.find((e) => e.event === "error");
      expect(error?.data).toMatchObject({ error: "CustomError", message: "Boom" });
      expect(events.at(-1)?.event).toBe("end");
      expect((await client.runs.get(thread.thread_id, runId)).status).toBe("error");
      expect((await client.threads.get(thread.thread_id)).status).toBe("error");
    });
  });

  describe("resuming", () => {
    it("replays from Last-Event-ID with identical ids and events", async () => {
      const thread = await client.threads.create();
      let runId = "";
      const original = await collect(
        client.runs.stream(thread.thread_id, "agent", {
          input: human("one two three"),
          streamMode: ["values", "messages-tuple"],
          onRunCreated: (m) => void (runId = m.run_id),
        }),
      );
      const cut = 3;
      const resumed = await collect(
        client.runs.joinStream(thread.thread_id, runId, { lastEventId: original[cut]?.id ?? "" }),
      );
      expect(resumed).toEqual(original.slice(cut + 1));
      const full = await collect(client.runs.joinStream(thread.thread_id, runId, { lastEventId: "-1" }));
      expect(full).toEqual(original);
    });

    it("reconnects through Location after a dropped connection, losing and repeating nothing", async () => {
      const thread = await client.threads.create();
      const path = `/api/threads/${thread.thread_id}/runs/stream`;
      let streamResponse: ServerResponse | undefined;
      const onRequest = (req: IncomingMessage, res: ServerResponse) => {
        if (req.method === "POST" && req.url === path) streamResponse = res;
      };
      server.app.server.on("request", onRequest);
      let runId = "";
      const events: SdkEvent[] = [];
      const consumed = (async () => {
        for await (const part of client.runs.stream(thread.thread_id, "slow", {
          input: human("hold the line"),
          streamMode: ["values", "custom"],
          onRunCreated: (m) => void (runId = m.run_id),
        })) {
          events.push(part as SdkEvent);
          if ((part.data as { phase?: string } | null)?.phase === "holding") streamResponse?.socket?.destroy();
        }
      })();
      try {
        await eventually(
          async () => (streamResponse?.destroyed === true ? true : undefined),
          "the server to drop the stream",
        );
        server.gates.release(thread.thread_id);
        await consumed;
      } finally {
        server.app.server.off("request", onRequest);
      }
      const full = await collect(client.runs.joinStream(thread.thread_id, runId, { lastEventId: "-1" }));
      expect(events.map((e) => [e.id, e.event])).toEqual(full.map((e) => [e.id, e.event]));
      expect(events.map((e) => e.event)).toEqual(["metadata", "values", "custom", "values", "custom", "values", "end"]);
    });

    it("filters a join stream by stream_mode", async () => {
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, "agent", {
        input: human("filter me"),
        streamMode: ["values", "updates", "custom"],
      });
      const events = await collect(
        client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: "-1", streamMode: ["custom"] }),
      );
      expect(events.map((e) => e.event)).toEqual(["metadata", "custom", "end"]);
    });
  });

  describe("join and wait", () => {
    it("joins a background run and answers its final values", async () => {
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, "agent", { input: human("background") });
      expect(run).toMatchObject({ thread_id: thread.thread_id, assistant_id: AGENT_ID, multitask_strategy: "reject" });
      const values = await client.runs.join(thread.thread_id, run.run_id);
      expect(lastMessage(values)).toMatchObject({ type: "ai", content: "You said: background" });
      expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    });

    it("waits for a run's final values and raises its error", async () => {
      const thread = await client.threads.create();
      const values = await client.runs.wait(thread.thread_id, "agent", { input: human("wait for me") });
      expect((values as Values).messages.map((m) => m.content)).toEqual(["wait for me", "You said: wait for me"]);
      await expect(client.runs.wait(thread.thread_id, "agent", { input: human("fail now") })).rejects.toThrow(
        "CustomError: Boom",
      );
      const raw = await client.runs.wait(thread.thread_id, "agent", { input: human("fail again"), raiseError: false });
      expect(raw).toEqual({ __error__: { error: "CustomError", message: "Boom" } });
    });
  });

  describe("durability", () => {
    it("checkpoints every step by default and once with durability exit (or checkpoint_during false)", async () => {
      const historyAfter = async (extra: Record<string, unknown>): Promise<number> => {
        const thread = await client.threads.create();
        const res = await fetch(`${server.apiUrl}/threads/${thread.thread_id}/runs/wait`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ assistant_id: "agent", input: human("durable"), ...extra }),
        });
        expect(res.status).toBe(200);
        expect(lastMessage(await res.json())).toMatchObject({ content: "You said: durable" });
        const state = await client.threads.getState<Values>(thread.thread_id);
        expect(lastMessage(state.values)).toMatchObject({ content: "You said: durable" });
        return (await client.threads.getHistory(thread.thread_id, { limit: 100 })).length;
      };
      const everyStep = await historyAfter({});
      expect(everyStep).toBeGreaterThanOrEqual(3);
      expect(await historyAfter({ durability: "exit" })).toBeLessThan(everyStep);
      expect(await historyAfter({ checkpoint_during: false })).toBeLessThan(everyStep);
      expect(await historyAfter({ durability: "sync" })).toBe(everyStep);
    });
  });

  describe("stateless runs", () => {
    it("streams on a temporary thread that is deleted afterwards", async () => {
      const events = await collect(
        client.runs.stream(null, "agent", { input: human("stateless"), streamMode: "values" }),
      );
      expect(events.map((e) => e.event)).toEqual(["metadata", "values", "values", "end"]);
      expect(lastMessage(events.at(-2)?.data)).toMatchObject({ content: "You said: stateless" });
      const threadId = (events[0]?.data as { thread_id: string }).thread_id;
      await eventually(
        async () => ((await statusOf(client.threads.get(threadId))) === 404 ? true : undefined),
        "the temporary thread's deletion",
      );
    });

    it("waits on a temporary thread, or keeps it with on_completion keep", async () => {
      const values = await client.runs.wait(null, "agent", { input: human("no thread") });
      expect(lastMessage(values)).toMatchObject({ content: "You said: no thread" });
      const events = await collect(
        client.runs.stream(null, "agent", { input: human("keep it"), onCompletion: "keep" } as never),
      );
      const threadId = (events[0]?.data as { thread_id: string }).thread_id;
      const more = await client.runs.wait(threadId, "agent", { input: human("still here") });
      expect((more as Values).messages.map((m) => m.content)).toEqual([
        "keep it",
        "You said: keep it",
        "still here",
        "You said: still here",
      ]);
    });
  });

  describe("thread state", () => {
    it("reads state and history, travels to a checkpoint, and updates state", async () => {
      const thread = await client.threads.create();
      expect(await client.threads.getState(thread.thread_id)).toMatchObject({
        values: {},
        next: [],
        tasks: [],
        checkpoint: null,
      });
      expect(await client.threads.getHistory(thread.thread_id)).toEqual([]);

      await client.runs.wait(thread.thread_id, "agent", { input: human("first") });
      const state = await client.threads.getState<Values>(thread.thread_id);
      expect(state.values.messages.map((m) => m.content)).toEqual(["first", "You said: first"]);
      expect(state.next).toEqual([]);
      expect(state.checkpoint).toMatchObject({ thread_id: thread.thread_id, checkpoint_ns: "" });

      const history = await client.threads.getHistory<Values>(thread.thread_id, { limit: 100 });
      expect(history[0]?.checkpoint.checkpoint_id).toBe(state.checkpoint.checkpoint_id);
      expect(history.at(-1)?.next).toEqual(["__start__"]);
      expect(history.map((h) => h.values.messages?.length ?? 0)).toEqual(
        [...history.map((h) => h.values.messages?.length ?? 0)].sort((a, b) => b - a),
      );
      const older = await client.threads.getHistory<Values>(thread.thread_id, {
        limit: 1,
        before: { configurable: { checkpoint_id: state.checkpoint.checkpoint_id } },
      });
      expect(older[0]?.checkpoint.checkpoint_id).toBe(history[1]?.checkpoint.checkpoint_id);

      const firstStep = history.find((h) => h.values.messages?.length === 1);
      const travelled = await client.threads.getState<Values>(
        thread.thread_id,
        firstStep?.checkpoint.checkpoint_id ?? "",
      );
      expect(travelled.values.messages.map((m) => m.content)).toEqual(["first"]);

      const update = await client.threads.updateState(thread.thread_id, {
        values: { messages: [{ type: "ai", content: "edited", id: "edit-1" }] },
        asNode: "model",
      });
      const written = (update as unknown as { checkpoint: { checkpoint_id: string } }).checkpoint.checkpoint_id;
      expect(written).not.toBe(state.checkpoint.checkpoint_id);
      expect(update.configurable).toMatchObject({ thread_id: thread.thread_id, checkpoint_id: written });
      const after = await client.threads.getState<Values>(thread.thread_id);
      expect(after.values.messages.map((m) => m.content)).toEqual(["first", "You said: first", "edited"]);
      expect(after.checkpoint.checkpoint_id).toBe(written);
    });

    it("updates the state of a thread created for a graph before its first run", async () => {
      const thread = await client.threads.create({ graphId: "agent" });
      expect(await client.threads.getState(thread.thread_id)).toMatchObject({ values: {}, next: [], checkpoint: null });
      await client.threads.updateState(thread.thread_id, {
        values: { messages: [{ type: "human", content: "seeded", id: "s-1" }] },
      });
      const values = await client.runs.wait(thread.thread_id, "agent", { input: null });
      expect((values as Values).messages.map((m) => m.content)).toEqual(["seeded", "You said: seeded"]);
    });

    it("filters history by run metadata and forks a run from an older checkpoint", async () => {
      const thread = await client.threads.create();
      let firstRun = "";
      await client.runs.wait(thread.thread_id, "agent", {
        input: human("one"),
        onRunCreated: (m) => void (firstRun = m.run_id),
      });
      await client.runs.wait(thread.thread_id, "agent", { input: human("two") });
      const ofFirst = await client.threads.getHistory<Values>(thread.thread_id, {
        limit: 100,
        metadata: { run_id: firstRun },
      });
      expect(ofFirst.length).toBeGreaterThan(0);
      expect(ofFirst.every((h) => (h.metadata as Record<string, unknown>)["run_id"] === firstRun)).toBe(true);
      expect(ofFirst[0]?.values.messages.map((m) => m.content)).toEqual(["one", "You said: one"]);

      const fork = await client.runs.wait(thread.thread_id, "agent", {
        input: human("branch"),
        checkpointId: ofFirst[0]?.checkpoint.checkpoint_id ?? "",
      });
      expect((fork as Values).messages.map((m) => m.content)).toEqual([
        "one",
        "You said: one",
        "branch",
        "You said: branch",
      ]);
    });

    it("stops before a node with interrupt_before and continues with a null input", async () => {
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, "agent", { input: human("step by step"), interruptBefore: ["model"] });
      expect((await client.threads.getState(thread.thread_id)).next).toEqual(["model"]);
      expect((await client.threads.get(thread.thread_id)).status).toBe("interrupted");
      const values = await client.runs.wait(thread.thread_id, "agent", { input: null });
      expect(lastMessage(values)).toMatchObject({ content: "You said: step by step" });
    });

    it("runs a command that updates state and goes to a node", async () => {
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, "agent", { input: human("start") });
      const values = await client.runs.wait(thread.thread_id, "agent", {
        command: { update: { messages: [{ type: "human", content: "via update", id: "u-1" }] }, goto: "model" },
      });
      expect((values as Values).messages.map((m) => m.content)).toEqual([
        "start",
        "You said: start",
        "via update",
        "You said: via update",
      ]);
    });

    it("pauses at an interrupt and resumes with a command", async () => {
      const thread = await client.threads.create();
      const events = await collect(
        client.runs.stream(thread.thread_id, "agent", {
          input: human("please approve"),
          streamMode: ["values", "updates"],
        }),
      );
      const interrupted = events.filter((e) => e.event === "updates").map((e) => e.data as Record<string, unknown>);
      expect(interrupted.at(-1)?.["__interrupt__"]).toEqual([
        expect.objectContaining({ value: { question: "Approve?" } }),
      ]);

      const got = await client.threads.get(thread.thread_id);
      expect(got.status).toBe("interrupted");
      expect(Object.values(got.interrupts).flat()).toEqual([
        expect.objectContaining({ value: { question: "Approve?" } }),
      ]);
      const state = await client.threads.getState(thread.thread_id);
      expect(state.next).toEqual(["review"]);
      expect(state.tasks[0]?.interrupts).toEqual([expect.objectContaining({ value: { question: "Approve?" } })]);

      const values = await client.runs.wait(thread.thread_id, "agent", { command: { resume: "yes" } });
      expect(lastMessage(values)).toMatchObject({ content: "approved: yes" });
      expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
    });
  });

  describe("run records", () => {
    it("lists, gets and deletes runs", async () => {
      const thread = await client.threads.create();
      const first = await client.runs.create(thread.thread_id, "agent", {
        input: human("a"),
        metadata: { tag: "first" },
      });
      await client.runs.join(thread.thread_id, first.run_id);
      const second = await client.runs.create(thread.thread_id, "agent", { input: human("b") });
      await client.runs.join(thread.thread_id, second.run_id);

      const runs = await client.runs.list(thread.thread_id);
      expect(runs.map((r) => r.run_id)).toEqual([second.run_id, first.run_id]);
      expect(await client.runs.get(thread.thread_id, first.run_id)).toMatchObject({
        status: "success",
        metadata: { tag: "first" },
      });
      expect((await client.runs.list(thread.thread_id, { limit: 1, offset: 1 })).map((r) => r.run_id)).toEqual([
        first.run_id,
      ]);

      await client.runs.delete(thread.thread_id, first.run_id);
      expect(await statusOf(client.runs.get(thread.thread_id, first.run_id))).toBe(404);
      expect((await client.runs.list(thread.thread_id)).map((r) => r.run_id)).toEqual([second.run_id]);
      // A run is only visible through its own thread.
      const other = await client.threads.create();
      expect(await statusOf(client.runs.get(other.thread_id, second.run_id))).toBe(404);
    });

    it("refuses a run on a missing thread with 404, and creates it with ifNotExists create", async () => {
      const missing = randomUUID();
      expect(await statusOf(client.runs.create(missing, "agent", { input: human("x") }))).toBe(404);
      expect(await statusOf(client.threads.get(missing))).toBe(404);
      const run = await client.runs.create(missing, "agent", { input: human("x"), ifNotExists: "create" });
      await client.runs.join(missing, run.run_id);
      expect((await client.threads.get(missing)).metadata).toMatchObject({ graph_id: "agent", assistant_id: AGENT_ID });
    });
  });
});
