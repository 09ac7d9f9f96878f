/**
 * The SSE bytes on the wire, read from a raw socket: headers, frame grammar,
 * the metadata and end frames, heartbeat lines, the gap frame, keep-alives of
 * /wait, CORS exposure, and what draining and closing the server do to open streams.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAINING_MESSAGE, drainGateway } from "../../src/index.js";
import { framesOf, openRaw, parseFrame } from "../support/langgraph/raw-sse.js";
import { eventually, startServer, type TestServer } from "../support/langgraph/server.js";

const human = (content: string) => ({ messages: [{ role: "user", content }] });

async function newThread(server: TestServer): Promise<string> {
  const res = await fetch(`${server.apiUrl}/threads`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  return ((await res.json()) as { thread_id: string }).thread_id;
}

describe("SSE wire format", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ heartbeatMs: 20, gateway: { cors: { origins: ["http://console.test"] } } });
  });

  afterAll(async () => {
    await server.close();
  });

  it("sends the headers, metadata first, one-line frames with ids, and the end frame last", async () => {
    const threadId = await newThread(server);
    const raw = await openRaw(server.origin, `/api/threads/${threadId}/runs/stream`, {
      method: "POST",
      body: {
        assistant_id: "agent",
        input: human("bytes please"),
        stream_mode: ["values", "messages-tuple", "custom"],
      },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(raw.headers["cache-control"]).toBe("no-cache");
    expect(raw.headers["x-accel-buffering"]).toBe("no");
    const location = raw.headers["content-location"] ?? "";
    expect(location).toMatch(new RegExp(`^/api/threads/${threadId}/runs/[0-9a-f-]{36}$`));
    const runId = location.split("/").at(-1) ?? "";
    expect(raw.headers["location"]).toBe(`/threads/${threadId}/runs/${runId}/stream`);

    const frames = framesOf(await raw.done()).filter((f) => !f.startsWith(":"));
    const first = parseFrame(frames[0] ?? "");
    expect(frames[0]).toBe(
      `event: metadata\ndata: {"run_id":"${runId}","thread_id":"${threadId}","attempt":1}\nid: ${first.id}\n\n`,
    );
    expect(frames.at(-1)).toBe("event: end\ndata: null\n\n");
    for (const frame of frames.slice(0, -1))
      expect(frame).toMatch(/^event: [a-z/|:-]+\ndata: [^\n]+\nid: \d+-\d+\n\n$/);
    expect(new Set(frames.slice(0, -1).map((f) => parseFrame(f).event))).toEqual(
      new Set(["metadata", "values", "messages", "custom"]),
    );
  });

  it("writes heartbeats as lone comment lines, never followed by a blank line", async () => {
    const threadId = await newThread(server);
    const raw = await openRaw(server.origin, `/api/threads/${threadId}/runs/stream`, {
      method: "POST",
      body: { assistant_id: "slow", input: human("hold") },
    });
    await raw.until((t) => t.split(": heartbeat\n").length > 3, "three heartbeats");
    server.gates.release(threadId);
    const text = await raw.done();
    expect(text).not.toContain(": heartbeat\n\n");
    expect(text).not.toMatch(/: heartbeat\n(?!: heartbeat\n|event: )/);
    expect(text.endsWith("event: end\ndata: null\n\n")).toBe(true);
  });

  it("answers a resume point that is no longer kept with a gap frame and no end", async () => {
    const small = await startServer({ heartbeatMs: 20, maxEventsPerRun: 3 });
    try {
      const threadId = await newThread(small);
      const created = await fetch(`${small.apiUrl}/threads/${threadId}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          assistant_id: "agent",
          input: human("a long enough answer to drop events"),
          stream_mode: ["values", "messages-tuple"],
        }),
      });
      const runId = ((await created.json()) as { run_id: string }).run_id;
      await small.manager.join(runId);
      const raw = await openRaw(small.origin, `/api/threads/${threadId}/runs/${runId}/stream`, {
        headers: { "last-event-id": "1-0" },
      });
      const frames = framesOf(await raw.done());
      expect(frames).toHaveLength(1);
      expect(frames[0]).toMatch(/^event: gap\ndata: [^\n]+\n\n$/);
      expect(parseFrame(frames[0] ?? "").data).toMatchObject({
        code: "stream_replay_gap",
        run_id: runId,
        requested_event_id: "1-0",
        earliest_available_event_id: expect.stringMatching(/^\d+-\d+$/),
        recovery: "reload_durable_state",
      });
    } finally {
      await small.close();
    }
  });

  it("keeps /wait alive with newlines and ends with the final JSON", async () => {
    const threadId = await newThread(server);
    const raw = await openRaw(server.origin, `/api/threads/${threadId}/runs/wait`, {
      method: "POST",
      body: { assistant_id: "slow", input: human("hold") },
    });
    expect(raw.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(raw.headers["content-location"]).toMatch(new RegExp(`^/api/threads/${threadId}/runs/`));
    await raw.until((t) => t.startsWith("\n\n"), "two keep-alives");
    server.gates.release(threadId);
    const body = await raw.done();
    expect(body).toMatch(/^\n+\{/);
    expect((JSON.parse(body) as { messages: Array<{ content: string }> }).messages.map((m) => m.content)).toEqual([
      "hold",
      "working on: hold",
      "finished: hold",
    ]);
  });

  it("exposes Content-Location and Location to browsers", async () => {
    const threadId = await newThread(server);
    const preflight = await fetch(`${server.apiUrl}/threads/${threadId}/runs/stream`, {
      method: "OPTIONS",
      headers: {
        origin: "http://console.test",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,last-event-id",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("last-event-id");
    const raw = await openRaw(server.origin, `/api/threads/${threadId}/runs/stream`, {
      method: "POST",
      headers: { origin: "http://console.test" },
      body: { assistant_id: "agent", input: human("cors") },
    });
    expect(raw.headers["access-control-allow-origin"]).toBe("http://console.test");
    const exposed = String(raw.headers["access-control-expose-headers"])
      .toLowerCase()
      .split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(["content-location", "location"]));
    await raw.done();
  });

  it("names stateless runs by /api/runs/<id>", async () => {
    const raw = await openRaw(server.origin, "/api/runs/stream", {
      method: "POST",
      body: { assistant_id: "agent", input: human("stateless") },
    });
    expect(raw.headers["content-location"]).toMatch(/^\/api\/runs\/[0-9a-f-]{36}$/);
    expect(raw.headers["location"]).toMatch(/^\/runs\/[0-9a-f-]{36}\/stream$/);
    expect((await raw.done()).endsWith("event: end\ndata: null\n\n")).toBe(true);
  });

  it("draining refuses new requests with 503 and Retry-After while open streams go on to their end", async () => {
    const own = await startServer({ heartbeatMs: 20 });
    try {
      const threadId = await newThread(own);
      const raw = await openRaw(own.origin, `/api/threads/${threadId}/runs/stream`, {
        method: "POST",
        body: { assistant_id: "slow", input: human("hold") },
      });
      await eventually(async () => (own.gates.waiting(threadId) === 1 ? true : undefined), "the run to hold");
      const drain = drainGateway(own.app, { retryAfterSeconds: 3 });
      expect(drain.inFlight).toBe(1);

      const refused = await fetch(`${own.apiUrl}/threads`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("3");
      expect(refused.headers.get("connection")).toBe("close");
      expect(await refused.json()).toEqual({ detail: DRAINING_MESSAGE });
      const health = await fetch(`${own.origin}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: "unavailable", draining: true });
      expect((await fetch(`${own.origin}/ok`)).status).toBe(200);

      // The stream in flight is untouched: the run finishes and the client gets every event and the end.
      expect(await drain.settled(50)).toBe(false);
      own.gates.release(threadId);
      const frames = framesOf(await raw.done()).filter((f) => !f.startsWith(":"));
      expect(frames.at(-1)).toBe("event: end\ndata: null\n\n");
      expect(frames.map((f) => parseFrame(f).event)).toContain("values");
      const seqs = frames.slice(0, -1).map((f) => Number(parseFrame(f).id?.split("-")[1]));
      expect(seqs).toEqual(seqs.map((_, i) => i));
      expect((await own.manager.list(threadId))[0]?.status).toBe("success");
      expect(await drain.settled(10_000)).toBe(true);
      expect(drain.inFlight).toBe(0);
    } finally {
      await own.close();
    }
  });

  it("ends open streams when the server closes, leaving their runs to the manager", async () => {
    const own = await startServer({ heartbeatMs: 20 });
    const threadId = await newThread(own);
    const raw = await openRaw(own.origin, `/api/threads/${threadId}/runs/stream`, {
      method: "POST",
      body: { assistant_id: "slow", input: human("hold") },
    });
    await eventually(async () => (own.gates.waiting(threadId) === 1 ? true : undefined), "the run to hold");
    await own.app.close();
    const text = await raw.done();
    expect(text).toContain("event: metadata");
    expect(text).not.toContain("event: end");
    const run = (await own.manager.list(threadId))[0];
    expect(run?.status).toBe("running");
    await own.manager.shutdown({ drain: false, timeoutMs: 2_000 });
  });
});
