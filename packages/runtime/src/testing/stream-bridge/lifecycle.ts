/** Lifecycle: heartbeats, subscribing early, abort, exists/cleanup, publishEnd, close. */
import {
  asEvents,
  expectRuntimeError,
  plain,
  publishMany,
  Reader,
  sleep,
  waitFor,
  within,
  type Kit,
} from "./context.js";

/** Registers the lifecycle checks. */
export function lifecycleTests(kit: Kit): void {
  const { expect } = kit;
  kit.test(
    "an idle subscription yields heartbeats (subscribe heartbeatMs), then continues with new events",
    async () => {
      const bridge = kit.bridge();
      const runId = kit.runId("heartbeat");
      const published = await publishMany(bridge, runId, 1);
      const reader = new Reader(kit, runId, { heartbeatMs: 50 });
      expect(plain([(await reader.nextItem()) ?? { kind: "end" }])).toEqual(asEvents(published));
      for (let i = 0; i < 2; i++) {
        const item = await reader.next(10_000, `heartbeat ${i + 1}`);
        expect(item.done !== true && item.value.kind, `item ${i + 1} while idle`).toBe("heartbeat");
      }
      published.push(...(await publishMany(bridge, runId, 2, 1)));
      await bridge.publishEnd(runId);
      expect(plain(await reader.rest())).toEqual([...asEvents(published.slice(1)), { kind: "end" }]);
    },
  );

  kit.test("subscribing to a run with no stream yet waits (with heartbeats) for its first event", async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("early");
    expect(await bridge.exists(runId)).toBe(false);
    const reader = new Reader(kit, runId, { heartbeatMs: 50 });
    const idle = await reader.next(10_000, "a heartbeat before the first publish");
    expect(idle.done !== true && idle.value.kind).toBe("heartbeat");
    const quiet = new Reader(kit, runId);
    const pending = quiet.pull();
    await sleep(kit.ms(100));
    const published = await publishMany(bridge, runId, 3);
    await bridge.publishEnd(runId);
    await within(pending, kit.ms(10_000), "the first event of a subscriber that started before it");
    expect(plain([...quiet.items, ...(await quiet.rest())])).toEqual([...asEvents(published), { kind: "end" }]);
    expect(plain(await reader.rest())).toEqual([...asEvents(published), { kind: "end" }]);
  });

  kit.test(
    "aborting the signal ends the iteration promptly: before it starts, while waiting, and while waiting for a stream",
    async () => {
      const bridge = kit.bridge();
      const runId = kit.runId("abort");
      await publishMany(bridge, runId, 1);
      const before = new AbortController();
      before.abort();
      await new Reader(kit, runId, { signal: before.signal }).expectDone();

      const waiting = new AbortController();
      const reader = new Reader(kit, runId, { signal: waiting.signal });
      expect((await reader.nextItem())?.kind).toBe("event");
      const pending = reader.pull();
      await sleep(kit.ms(100));
      waiting.abort();
      const result = await within(pending, kit.ms(5_000), "the iteration to end after abort");
      expect(result.done).toBe(true);

      const early = new AbortController();
      const noStream = new Reader(kit, kit.runId("abort-nostream"), { signal: early.signal });
      const pendingEarly = noStream.pull();
      await sleep(kit.ms(100));
      early.abort();
      expect((await within(pendingEarly, kit.ms(5_000), "the iteration to end after abort")).done).toBe(true);
    },
  );

  kit.test(
    "exists reflects publish, publishEnd and cleanup; a delayed cleanup resolves at once and deletes later",
    async () => {
      const bridge = kit.bridge();
      const [events, endOnly, delayed] = [kit.runId("exists"), kit.runId("end-only"), kit.runId("delayed")];
      expect(await bridge.exists(events)).toBe(false);
      await publishMany(bridge, events, 2);
      expect(await bridge.exists(events)).toBe(true);
      await bridge.publishEnd(endOnly);
      expect(await bridge.exists(endOnly)).toBe(true);
      await bridge.cleanup(events);
      expect(await bridge.exists(events)).toBe(false);
      await bridge.cleanup(kit.runId("never-published"));

      await publishMany(bridge, delayed, 1);
      await bridge.cleanup(delayed, { delayMs: 300 });
      expect(await bridge.exists(delayed), "right after a delayed cleanup").toBe(true);
      expect(
        await waitFor(async () => !(await bridge.exists(delayed)), kit.ms(10_000)),
        "the stream to be deleted after the delay",
      ).toBe(true);
    },
  );

  kit.test("publishEnd is idempotent (sequential and concurrent) and ends a run that has no events", async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("end-twice");
    const published = await publishMany(bridge, runId, 2);
    await bridge.publishEnd(runId);
    await bridge.publishEnd(runId);
    await Promise.all([bridge.publishEnd(runId), bridge.publishEnd(runId)]);
    expect(plain(await new Reader(kit, runId).rest())).toEqual([...asEvents(published), { kind: "end" }]);

    const empty = kit.runId("end-only");
    const waiting = new Reader(kit, empty);
    const pending = waiting.pull();
    await bridge.publishEnd(empty);
    await within(pending, kit.ms(10_000), "the end of a run ended before any event");
    expect(plain([...waiting.items, ...(await waiting.rest())])).toEqual([{ kind: "end" }]);
    expect(plain(await new Reader(kit, empty).rest())).toEqual([{ kind: "end" }]);
  });

  kit.test("close ends live subscriptions (their iterators return) and later publishes fail with CLOSED", async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("close");
    await publishMany(bridge, runId, 1);
    const live = new Reader(kit, runId);
    expect((await live.nextItem())?.kind).toBe("event");
    const pendingLive = live.pull();
    const noStream = new Reader(kit, kit.runId("close-nostream"));
    const pendingNoStream = noStream.pull();
    await sleep(kit.ms(100));
    kit.markClosed();
    await within(bridge.close(), kit.ms(10_000), "close()");
    expect((await within(pendingLive, kit.ms(5_000), "a live subscription to end on close")).done).toBe(true);
    expect((await within(pendingNoStream, kit.ms(5_000), "a waiting subscription to end on close")).done).toBe(true);
    await expectRuntimeError(bridge.publish(runId, "custom", {}), "CLOSED");
  });
}
