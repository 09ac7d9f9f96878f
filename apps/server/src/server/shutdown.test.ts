/**
 * Graceful shutdown: a run that finishes within the drain timeout ends normally and its
 * SSE client receives every event and the real `end`; a run still going when it expires is
 * interrupted ("Server shutting down") and its stream ends too; new requests get 503 with
 * Retry-After meanwhile; close() is idempotent.
 */
import { afterAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "./create-server.js";
import { openSse, sseEvents, type SseEvent } from "../../test/support/sse-stream.js";
import { tempDirs } from "../../test/support/temp-dir.js";
import { eventually, HOST_BASH_CONFIG, startServer } from "../../test/support/server-harness.js";

const JSON_HEADERS = { "content-type": "application/json" };

/** The `seq` parts of the events' ids: 0, 1, 2... when no event is missing. */
function seqs(events: readonly SseEvent[]): number[] {
  return events.filter((e) => e.id !== undefined).map((e) => Number(e.id?.split("-")[1]));
}

const temp = tempDirs();
afterAll(() => temp.cleanup());

describe("graceful shutdown", () => {
  it("drains a short run and interrupts a long one", async () => {
    const dir = await temp.make();
    // The drain budget only has to outlast the short demo turn; the long run sleeps far beyond it.
    const { server, client, url, logs } = await startServer(dir, HOST_BASH_CONFIG, {
      deployment: { shutdownTimeoutMs: 5_000 },
    });

    const longThread = await client.threads.create();
    const long = await client.runs.create(longThread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ role: "user", content: "run `sleep 600`" }] },
    });
    // Wait until the long run is inside its bash call (the model's tool call is checkpointed).
    await eventually(async () => {
      const state = await client.threads.getState<{ messages?: { tool_calls?: { args?: { command?: string } }[] }[] }>(
        longThread.thread_id,
      );
      return state.values.messages?.some((m) => m.tool_calls?.some((c) => c.args?.command === "sleep 600")) === true
        ? true
        : undefined;
    });

    const shortThread = await client.threads.create();
    const short = await client.runs.create(shortThread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ role: "user", content: "Hello" }] },
    });

    // A client follows the long run from its first event; the stream must stay open through the drain.
    const longStream = await openSse(`${url}/api/threads/${longThread.thread_id}/runs/${long.run_id}/stream`, {
      headers: { "last-event-id": "-1" },
    });
    await longStream.until((t) => t.includes("event: values"), "the long run's first values");

    const joined = Promise.all([server.manager.join(short.run_id), server.manager.join(long.run_id)]);
    const closing = server.close();
    expect(server.close()).toBe(closing);
    const [shortRun, longRun] = await joined;
    await closing;

    expect(shortRun.status).toBe("success");
    expect(longRun.status).toBe("interrupted");
    expect(longRun.error).toBe("Server shutting down");
    // Interrupted at the deadline, its stream was ended by the run's own end marker.
    const longEvents = sseEvents(await longStream.done());
    expect(longEvents.at(-1)).toEqual({ event: "end", data: null });
    expect(seqs(longEvents)).toEqual(seqs(longEvents).map((_, i) => i));
    await expect(fetch(`${url}/ok`)).rejects.toThrow();
    const messages = logs.messages();
    expect(messages).toContain("shutting down: no new requests; draining local runs");
    expect(messages).toContain("shutdown complete");
  });

  it("keeps a run's SSE stream open while it drains: every event and the real end; new requests get 503", async () => {
    const dir = await temp.make();
    // A generous budget: the run (a 2 s bash call) must finish within it, whatever the machine's load.
    const { server, url, client } = await startServer(dir, HOST_BASH_CONFIG, {
      deployment: { shutdownTimeoutMs: 60_000 },
    });
    const thread = await client.threads.create();
    const stream = await openSse(`${url}/api/threads/${thread.thread_id}/runs/stream`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({
        assistant_id: LEAD_AGENT_ASSISTANT_ID,
        input: { messages: [{ role: "user", content: "run `sleep 2`" }] },
        stream_mode: ["values", "updates"],
      }),
    });
    expect(stream.status).toBe(200);
    const runId = stream.headers.get("content-location")?.split("/").at(-1) ?? "";
    // Shut down mid-run: the model has asked for the bash call, which now sleeps.
    await stream.until((t) => t.includes('"command":"sleep 2"'), "the run's bash call");
    const joined = server.manager.join(runId);
    const closing = server.close();

    const refused = await fetch(`${url}/api/threads`, { method: "POST", headers: JSON_HEADERS, body: "{}" });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { draining?: boolean }).draining).toBe(true);

    const events = sseEvents(await stream.done());
    expect(events.at(-1)).toEqual({ event: "end", data: null });
    expect(events[0]?.event).toBe("metadata");
    expect(seqs(events)).toEqual(seqs(events).map((_, i) => i));
    // The tail is there: the tool's result and the model's answer after it.
    const last = events.filter((e) => e.event === "values").at(-1)?.data as {
      messages: { type: string; tool_calls?: unknown[] }[];
    };
    expect(last.messages.map((m) => m.type)).toEqual(["human", "ai", "tool", "ai"]);
    expect((await joined).status).toBe("success");
    await closing;
  });

  it("interrupts at once without drain", async () => {
    const dir = await temp.make();
    const { server, client } = await startServer(dir, HOST_BASH_CONFIG);
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ role: "user", content: "run `sleep 600`" }] },
    });
    await eventually(async () =>
      (await client.runs.get(thread.thread_id, run.run_id)).status === "running" ? true : undefined,
    );
    const joined = server.manager.join(run.run_id);
    await server.close({ drain: false });
    expect((await joined).status).toBe("interrupted");
  });
});
