import { EventEmitter } from "node:events";
import type { FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { LiveResponses } from "./live-response.js";

/** A ServerResponse stand-in whose `write` reports a full buffer on demand. */
class FakeRaw extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  full = false;
  readonly chunks: string[] = [];
  head: { status: number; headers: Record<string, unknown> } | undefined;
  flushed = false;

  writeHead(status: number, headers: Record<string, unknown>): void {
    this.head = { status, headers };
  }
  flushHeaders(): void {
    this.flushed = true;
  }
  /** cork / write / uncork calls in order. */
  readonly calls: string[] = [];
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    this.calls.push(`write ${chunk}`);
    return !this.full;
  }
  cork(): void {
    this.calls.push("cork");
  }
  uncork(): void {
    this.calls.push("uncork");
  }
  end(): void {
    this.writableEnded = true;
    this.emit("close");
  }
}

function fakes(options: { socketDestroyed?: boolean } = {}) {
  const raw = new FakeRaw();
  let hijacked = false;
  const reply = {
    raw,
    getHeaders: () => ({ "access-control-allow-origin": "http://x.test", "x-absent": undefined }),
    hijack: () => void (hijacked = true),
  } as unknown as FastifyReply;
  const request = { raw: { socket: { destroyed: options.socketDestroyed === true } } } as unknown as FastifyRequest;
  return { raw, reply, request, hijacked: () => hijacked };
}

describe("LiveResponse", () => {
  it("hijacks the reply and flushes the reply's headers with the route's at once", () => {
    const { raw, reply, request, hijacked } = fakes();
    new LiveResponses().open(request, reply, 200, { "content-type": "text/event-stream" });
    expect(hijacked()).toBe(true);
    expect(raw.head).toEqual({
      status: 200,
      headers: { "access-control-allow-origin": "http://x.test", "content-type": "text/event-stream" },
    });
    expect(raw.flushed).toBe(true);
  });

  it("waits for drain when the socket buffer is full", async () => {
    const { raw, reply, request } = fakes();
    const response = new LiveResponses().open(request, reply, 200, {});
    raw.full = true;
    let written = false;
    const pending = response.write("a").then(() => (written = true));
    await new Promise((r) => setImmediate(r));
    expect(written).toBe(false);
    raw.emit("drain");
    await pending;
    expect(written).toBe(true);
    expect(raw.chunks).toEqual(["a"]);
  });

  it("corks the writes of one turn into one socket write and uncorks on the next tick", async () => {
    const { raw, reply, request } = fakes();
    const response = new LiveResponses().open(request, reply, 200, {});
    await Promise.all([response.write("a"), response.write("b")]);
    await response.write("c");
    expect(raw.calls).toEqual(["cork", "write a", "write b", "write c"]);
    await new Promise((r) => process.nextTick(r));
    expect(raw.calls).toEqual(["cork", "write a", "write b", "write c", "uncork"]);
    await response.write("d");
    await new Promise((r) => setImmediate(r));
    expect(raw.calls.slice(5)).toEqual(["cork", "write d", "uncork"]);
  });

  it("aborts when the client disconnects, failing a write waiting for drain", async () => {
    const { raw, reply, request } = fakes();
    const response = new LiveResponses().open(request, reply, 200, {});
    raw.full = true;
    const pending = response.write("a");
    raw.emit("close");
    await expect(pending).rejects.toBe("client_disconnected");
    expect(response.clientGone).toBe(true);
    await expect(response.write("b")).rejects.toBe("client_disconnected");
    expect(raw.chunks).toEqual(["a"]);
  });

  it("does not count its own end as a disconnect", () => {
    const { raw, reply, request } = fakes();
    const live = new LiveResponses();
    const response = live.open(request, reply, 200, {});
    expect(live.size).toBe(1);
    response.end();
    response.end();
    expect(raw.writableEnded).toBe(true);
    expect(response.signal.aborted).toBe(false);
    expect(live.size).toBe(0);
  });

  it("starts aborted when the client already left", () => {
    const { raw, reply, request } = fakes({ socketDestroyed: true });
    const live = new LiveResponses();
    const response = live.open(request, reply, 200, {});
    expect(response.clientGone).toBe(true);
    expect(raw.head).toBeUndefined();
    expect(live.size).toBe(0);
  });

  it("ends every open response when the server closes", () => {
    const live = new LiveResponses();
    const a = fakes();
    const b = fakes();
    const first = live.open(a.request, a.reply, 200, {});
    const second = live.open(b.request, b.reply, 200, {});
    live.closeAll();
    for (const [response, raw] of [
      [first, a.raw],
      [second, b.raw],
    ] as const) {
      expect(response.signal.reason).toBe("server_closing");
      expect(response.clientGone).toBe(false);
      expect(raw.writableEnded).toBe(true);
    }
    expect(live.size).toBe(0);
  });
});
