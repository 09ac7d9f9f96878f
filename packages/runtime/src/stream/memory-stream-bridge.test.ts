import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RuntimeError } from "../errors.js";
import { MemoryStreamBridge } from "./memory-stream-bridge.js";
import type { StreamItem } from "./stream-bridge.js";
import { streamBridgeConformance } from "../testing/stream-bridge-conformance.js";
import { capturingLogger } from "../../test/support/capturing-logger.js";

const runner = { describe, it, expect, beforeEach, afterEach };
streamBridgeConformance({
  name: "MemoryStreamBridge",
  makeBridge: async () => ({ bridge: new MemoryStreamBridge({ maxEventsPerRun: 16 }) }),
  maxEventsPerRun: 16,
  ...runner,
});
streamBridgeConformance({
  name: "MemoryStreamBridge (default retention)",
  makeBridge: async () => ({ bridge: new MemoryStreamBridge() }),
  ...runner,
});

async function collect(iterable: AsyncIterable<StreamItem>): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  for await (const item of iterable) if (item.kind !== "heartbeat") items.push(item);
  return items;
}

function codeOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return RuntimeError.isInstance(error) ? error.code : error;
  }
  return "no error";
}

describe("MemoryStreamBridge specifics", () => {
  it("ids are <publish ms>-<0-based seq>, and seq keeps counting across evictions", async () => {
    const bridge = new MemoryStreamBridge({ maxEventsPerRun: 2 });
    const before = Date.now();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await bridge.publish("run", "custom", i));
    const after = Date.now();
    expect(ids.map((id) => id.split("-")[1])).toEqual(["0", "1", "2", "3", "4"]);
    for (const id of ids) {
      const ms = Number(id.split("-")[0]);
      expect(ms).toBeGreaterThanOrEqual(before);
      expect(ms).toBeLessThanOrEqual(after);
    }
    await bridge.publishEnd("run");
    expect(await collect(bridge.subscribe("run"))).toEqual([
      { kind: "event", id: ids[3], event: "custom", data: 3 },
      { kind: "event", id: ids[4], event: "custom", data: 4 },
      { kind: "end" },
    ]);
  });

  it("delivers the published value itself (no copy) in a frozen envelope", async () => {
    const bridge = new MemoryStreamBridge();
    const data = { big: "x".repeat(10) };
    await bridge.publish("run", "values", data);
    const iterator = bridge.subscribe("run")[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done !== true && first.value.kind === "event" && first.value.data).toBe(data);
    expect(Object.isFrozen(first.value)).toBe(true);
    await iterator.return?.();
  });

  it("cleanup ends a live subscription with a gap whose bounds are null", async () => {
    const bridge = new MemoryStreamBridge();
    const id = await bridge.publish("run", "custom", 0);
    const items: StreamItem[] = [];
    const reading = (async () => {
      for await (const item of bridge.subscribe("run")) items.push(item);
    })();
    while (items.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await bridge.cleanup("run");
    await reading;
    expect(items).toEqual([
      { kind: "event", id, event: "custom", data: 0 },
      { kind: "gap", runId: "run", requestedEventId: id, earliestAvailableEventId: null, latestAvailableEventId: null },
    ]);
  });

  it("events published after publishEnd are never delivered", async () => {
    const bridge = new MemoryStreamBridge();
    const id = await bridge.publish("run", "custom", 0);
    await bridge.publishEnd("run");
    await bridge.publish("run", "custom", "late");
    expect(await collect(bridge.subscribe("run"))).toEqual([
      { kind: "event", id, event: "custom", data: 0 },
      { kind: "end" },
    ]);
  });

  it("validates synchronously: malformed cursor, heartbeat and run id → INVALID_ARGUMENT; after close → CLOSED", async () => {
    const bridge = new MemoryStreamBridge();
    expect(codeOf(() => bridge.subscribe("run", { lastEventId: "nope" }))).toBe("INVALID_ARGUMENT");
    expect(() => bridge.subscribe("run", { lastEventId: "nope" })).toThrow(
      /Malformed lastEventId "nope" for run "run"/,
    );
    expect(codeOf(() => bridge.subscribe("run", { heartbeatMs: 0 }))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => bridge.subscribe(""))).toBe("INVALID_ARGUMENT");
    await expect(bridge.publish("run", "", {})).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(bridge.publish("", "custom", {})).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(bridge.cleanup("run", { delayMs: -1 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await bridge.close();
    await bridge.close();
    expect(codeOf(() => bridge.subscribe("run"))).toBe("CLOSED");
    await expect(bridge.publishEnd("run")).rejects.toMatchObject({ code: "CLOSED" });
  });

  it("rejects bad options with CONFIG_INVALID", () => {
    expect(codeOf(() => new MemoryStreamBridge({ maxEventsPerRun: 0 }))).toBe("CONFIG_INVALID");
    expect(codeOf(() => new MemoryStreamBridge({ maxEventsPerRun: 2.5 }))).toBe("CONFIG_INVALID");
    expect(codeOf(() => new MemoryStreamBridge({ heartbeatMs: -5 }))).toBe("CONFIG_INVALID");
  });

  it("close cancels delayed cleanups and drops every stream", async () => {
    const bridge = new MemoryStreamBridge();
    await bridge.publish("run", "custom", 0);
    await bridge.cleanup("run", { delayMs: 60_000 });
    const internals = bridge as unknown as { cleanups: { timers: Set<unknown> }; pending: Map<string, unknown> };
    expect(internals.cleanups.timers.size).toBe(1);
    await bridge.close();
    expect(internals.cleanups.timers.size).toBe(0);
    expect(await bridge.exists("run")).toBe(false);
  });

  it("logs a subscriber that fell behind (run, subscriber, how far) and counts it in stats()", async () => {
    const logger = capturingLogger();
    const bridge = new MemoryStreamBridge({ maxEventsPerRun: 4, logger });
    const first = await bridge.publish("run", "custom", 0);
    const iterator = bridge.subscribe("run", { subscriber: "req-7" })[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ kind: "event", id: first });
    // The subscriber stops pulling while ten more events are published: six of them are evicted unseen.
    const ids = [];
    for (let i = 1; i <= 10; i++) ids.push(await bridge.publish("run", "custom", i));
    expect((await iterator.next()).value).toEqual({
      kind: "gap",
      runId: "run",
      requestedEventId: first,
      earliestAvailableEventId: ids[6],
      latestAvailableEventId: ids[9],
    });
    expect((await iterator.next()).done).toBe(true);

    const warnings = logger.lines.filter((line) => line.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/fell further behind/);
    expect(warnings[0]?.obj).toMatchObject({
      runId: "run",
      subscriber: "req-7",
      reason: "slowSubscriber",
      lastEventId: first,
      eventsBehind: 10,
      missedEvents: 6,
    });
    expect(bridge.stats()).toEqual({ gaps: { slowSubscriber: 1, staleCursor: 0, streamDeleted: 0 } });

    // A stale resume cursor and a deleted stream are counted (and logged) under their own reasons.
    expect(await collect(bridge.subscribe("run", { lastEventId: first }))).toHaveLength(1);
    const live = bridge.subscribe("run", { lastEventId: ids[9] as string })[Symbol.asyncIterator]();
    const pending = live.next();
    await bridge.cleanup("run");
    expect((await pending).value).toMatchObject({ kind: "gap", earliestAvailableEventId: null });
    expect(bridge.stats()).toEqual({ gaps: { slowSubscriber: 1, staleCursor: 1, streamDeleted: 1 } });
    expect(logger.lines.filter((line) => line.level === "info").map((line) => line.obj["reason"])).toEqual([
      "staleCursor",
      "streamDeleted",
    ]);
    expect(logger.lines.find((line) => line.obj["reason"] === "staleCursor")?.obj["subscriber"]).toMatch(/^sub-\d+$/);
  });

  it("rejects a subscriber label that is not a non-empty string", () => {
    const bridge = new MemoryStreamBridge();
    expect(codeOf(() => bridge.subscribe("run", { subscriber: "" }))).toBe("INVALID_ARGUMENT");
  });

  it("forgets the waiting list of a run nobody waits for any more", async () => {
    const bridge = new MemoryStreamBridge();
    const internals = bridge as unknown as { pending: Map<string, unknown> };
    const controller = new AbortController();
    const iterator = bridge.subscribe("never", { signal: controller.signal })[Symbol.asyncIterator]();
    const pending = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(internals.pending.has("never")).toBe(true);
    controller.abort();
    expect((await pending).done).toBe(true);
    expect(internals.pending.has("never")).toBe(false);
  });
});
