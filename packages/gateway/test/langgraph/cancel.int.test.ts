/**
 * Cancellation, multitask strategies and client disconnects, through the real
 * SDK clients (1.15 and 2.0.0) against a listening gateway. The slow worker
 * holds in its `work` node until the test releases the thread's gate or the
 * run's signal aborts.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDKS, eventually, startServer, type SdkClient, type TestServer } from "../support/langgraph/server.js";

type Values = { messages: Array<{ content: unknown }> };

const human = (content: string) => ({ messages: [{ role: "user", content }] });

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return (err as { status?: number }).status;
  }
}

describe.each(SDKS)("runs under load with %s", (_name, makeClient) => {
  let server: TestServer;
  let client: SdkClient;

  beforeAll(async () => {
    server = await startServer({ heartbeatMs: 50 });
    client = makeClient(server.apiUrl);
  });

  afterAll(async () => {
    await server.close();
  });

  /** A thread whose state already holds one finished quick run. */
  async function threadWithHistory(): Promise<{ threadId: string; before: Values }> {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "slow", { input: human("quick one") });
    return { threadId: thread.thread_id, before: (await client.threads.getState<Values>(thread.thread_id)).values };
  }

  /** Starts a run that holds, and resolves once it is holding. */
  async function holdingRun(threadId: string): Promise<string> {
    const run = await client.runs.create(threadId, "slow", { input: human("hold please") });
    await eventually(async () => (server.gates.waiting(threadId) === 1 ? true : undefined), "the run to hold");
    return run.run_id;
  }

  const contents = (values: Values) => values.messages.map((m) => m.content);
  const runStatus = async (threadId: string, runId: string) => (await client.runs.get(threadId, runId)).status;

  describe("cancel", () => {
    it("interrupts a run and keeps what it checkpointed (wait: 204)", async () => {
      const { threadId, before } = await threadWithHistory();
      const runId = await holdingRun(threadId);
      await client.runs.cancel(threadId, runId, true, "interrupt");
      expect(await runStatus(threadId, runId)).toBe("interrupted");
      const after = (await client.threads.getState<Values>(threadId)).values;
      expect(contents(after)).toEqual([...contents(before), "hold please", "working on: hold please"]);
    });

    it("rolls a run back to the pre-run state", async () => {
      const { threadId, before } = await threadWithHistory();
      const runId = await holdingRun(threadId);
      await client.runs.cancel(threadId, runId, true, "rollback");
      expect(await runStatus(threadId, runId)).toBe("error");
      expect((await client.threads.getState<Values>(threadId)).values).toEqual(before);
      // The thread stays usable: the next run continues from the restored state.
      const next = await client.runs.wait(threadId, "slow", { input: human("again") });
      expect(contents(next as Values)).toEqual([...contents(before), "again", "working on: again", "finished: again"]);
    });

    it("accepts a cancel without waiting (202), repeats it, and refuses a finished run (409)", async () => {
      const thread = await client.threads.create();
      const runId = await holdingRun(thread.thread_id);
      await client.runs.cancel(thread.thread_id, runId);
      await eventually(
        async () => ((await runStatus(thread.thread_id, runId)) === "interrupted" ? true : undefined),
        "the interrupt",
      );
      await client.runs.cancel(thread.thread_id, runId, true);
      const done = await client.runs.create(thread.thread_id, "slow", { input: human("short") });
      await client.runs.join(thread.thread_id, done.run_id);
      expect(await statusOf(client.runs.cancel(thread.thread_id, done.run_id))).toBe(409);
      expect(await statusOf(client.runs.cancel(thread.thread_id, "00000000-0000-4000-8000-000000000000"))).toBe(404);
    });
  });

  describe("thread deletion", () => {
    it("cancels the thread's active run and deletes its runs and checkpoints", async () => {
      const thread = await client.threads.create();
      const runId = await holdingRun(thread.thread_id);
      await client.threads.delete(thread.thread_id);
      expect(server.gates.waiting(thread.thread_id)).toBe(0);
      expect(await statusOf(client.runs.get(thread.thread_id, runId))).toBe(404);
      expect(await server.manager.get(runId)).toBeNull();
      expect(
        await server.checkpointer.getTuple({ configurable: { thread_id: thread.thread_id, checkpoint_ns: "" } }),
      ).toBeUndefined();
    });
  });

  describe("multitask strategies", () => {
    it("reject: refuses a second run with 409 and no retry, creating nothing", async () => {
      let posts = 0;
      const counting = makeClientWithFetch(server.apiUrl, makeClient, () => void (posts += 1));
      const thread = await client.threads.create();
      const first = await holdingRun(thread.thread_id);
      posts = 0;
      const refused = counting.runs.create(thread.thread_id, "slow", {
        input: human("second"),
        multitaskStrategy: "reject",
      });
      expect(await statusOf(refused)).toBe(409);
      expect(posts).toBe(1);
      expect((await client.runs.list(thread.thread_id)).map((r) => r.run_id)).toEqual([first]);
      server.gates.release(thread.thread_id);
      expect(contents((await client.runs.join(thread.thread_id, first)) as Values)).toEqual([
        "hold please",
        "working on: hold please",
        "finished: hold please",
      ]);
    });

    it("interrupt: stops the active run and runs the new one on its state", async () => {
      const thread = await client.threads.create();
      const first = await holdingRun(thread.thread_id);
      const second = await client.runs.create(thread.thread_id, "slow", {
        input: human("urgent"),
        multitaskStrategy: "interrupt",
      });
      const values = (await client.runs.join(thread.thread_id, second.run_id)) as Values;
      expect(await runStatus(thread.thread_id, first)).toBe("interrupted");
      expect(await runStatus(thread.thread_id, second.run_id)).toBe("success");
      expect(contents(values)).toEqual([
        "hold please",
        "working on: hold please",
        "urgent",
        "working on: urgent",
        "finished: urgent",
      ]);
    });

    it("rollback: undoes the active run, then runs the new one", async () => {
      const { threadId, before } = await threadWithHistory();
      const first = await holdingRun(threadId);
      const second = await client.runs.create(threadId, "slow", {
        input: human("instead"),
        multitaskStrategy: "rollback",
      });
      const values = (await client.runs.join(threadId, second.run_id)) as Values;
      expect(await runStatus(threadId, first)).toBe("error");
      expect(contents(values)).toEqual([...contents(before), "instead", "working on: instead", "finished: instead"]);
    });

    it("enqueue: the new run waits its turn and runs after the active one", async () => {
      const thread = await client.threads.create();
      const first = await holdingRun(thread.thread_id);
      const second = await client.runs.create(thread.thread_id, "slow", {
        input: human("later"),
        multitaskStrategy: "enqueue",
      });
      const third = await client.runs.create(thread.thread_id, "slow", {
        input: human("last"),
        multitaskStrategy: "enqueue",
      });
      expect(await runStatus(thread.thread_id, second.run_id)).toBe("pending");
      expect(await runStatus(thread.thread_id, third.run_id)).toBe("pending");
      server.gates.release(thread.thread_id);
      const values = (await client.runs.join(thread.thread_id, third.run_id)) as Values;
      expect(await runStatus(thread.thread_id, first)).toBe("success");
      expect(await runStatus(thread.thread_id, second.run_id)).toBe("success");
      expect(contents(values)).toEqual([
        "hold please",
        "working on: hold please",
        "finished: hold please",
        "later",
        "working on: later",
        "finished: later",
        "last",
        "working on: last",
        "finished: last",
      ]);
    });
  });

  describe("client disconnects", () => {
    /** Streams until the run holds, then aborts the request; resolves with the run id. */
    async function streamThenAbort(threadId: string, onDisconnect: "cancel" | "continue" | undefined): Promise<string> {
      const controller = new AbortController();
      let runId = "";
      const stream = client.runs.stream(threadId, "slow", {
        input: human("hold please"),
        streamMode: "custom",
        signal: controller.signal,
        onRunCreated: (meta) => void (runId = meta.run_id),
        ...(onDisconnect === undefined ? {} : { onDisconnect }),
      });
      try {
        for await (const part of stream) {
          if ((part.data as { phase?: string } | null)?.phase === "holding") controller.abort();
        }
      } catch (err) {
        if (!controller.signal.aborted) throw err;
      }
      return runId;
    }

    it("on_disconnect=cancel interrupts the run when the client aborts", async () => {
      const thread = await client.threads.create();
      const runId = await streamThenAbort(thread.thread_id, "cancel");
      await eventually(
        async () => ((await runStatus(thread.thread_id, runId)) === "interrupted" ? true : undefined),
        "the run to be interrupted",
      );
      expect(server.gates.waiting(thread.thread_id)).toBe(0);
    });

    it("on_disconnect=continue (the default) lets the run finish", async () => {
      const thread = await client.threads.create();
      const closed = closedStreams(server);
      const runId = await streamThenAbort(thread.thread_id, undefined);
      await eventually(async () => (closed.count > 0 ? true : undefined), "the server to see the stream close");
      // The stream's subscription ends with its client; the run goes on.
      await eventually(async () => (server.bridge.active(runId) === 0 ? true : undefined), "the subscription to end");
      expect(((await client.runs.get(thread.thread_id, runId)) as unknown as { kwargs: unknown }).kwargs).toMatchObject(
        { on_disconnect: "continue" },
      );
      expect(await runStatus(thread.thread_id, runId)).toBe("running");
      server.gates.release(thread.thread_id);
      await client.runs.join(thread.thread_id, runId);
      expect(await runStatus(thread.thread_id, runId)).toBe("success");
    });

    it("joinStream with cancelOnDisconnect cancels the run when the joiner aborts", async () => {
      const thread = await client.threads.create();
      const runId = await holdingRun(thread.thread_id);
      const controller = new AbortController();
      try {
        for await (const part of client.runs.joinStream(thread.thread_id, runId, {
          signal: controller.signal,
          cancelOnDisconnect: true,
          lastEventId: "-1",
        })) {
          if (part.event === "metadata") controller.abort();
        }
      } catch (err) {
        if (!controller.signal.aborted) throw err;
      }
      await eventually(
        async () => ((await runStatus(thread.thread_id, runId)) === "interrupted" ? true : undefined),
        "the run to be interrupted",
      );
    });
  });
});

/** Counts `/runs/stream` responses the server saw close from now on (seen on the raw Node server). */
function closedStreams(server: TestServer): { count: number } {
  const counter = { count: 0 };
  server.app.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.endsWith("/runs/stream") === true) res.on("close", () => void (counter.count += 1));
  });
  return counter;
}

/** A client of the same SDK line whose fetch counts POSTs. */
function makeClientWithFetch(apiUrl: string, makeClient: (apiUrl: string) => SdkClient, onPost: () => void): SdkClient {
  const base = makeClient(apiUrl);
  const Ctor = base.constructor as new (config: unknown) => SdkClient;
  return new Ctor({
    apiUrl,
    apiKey: null,
    callerOptions: {
      fetch: (input: string | URL | Request, init?: RequestInit) => {
        if ((init?.method ?? "GET") === "POST") onPost();
        return fetch(input, init);
      },
    },
  });
}
