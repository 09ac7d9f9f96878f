/** Retention: gaps for evicted cursors and slow subscribers (counted by bridges with `stats`); the end marker never evicts. */
import type { GapReason, StreamBridge, StreamGap } from "../../stream/stream-bridge.js";
import { asEvents, describeItem, plain, publishMany, Reader, type Kit } from "./context.js";

/** The bridge's gap counters, or null when it has no `stats`. */
function gapCounts(bridge: StreamBridge): Readonly<Record<GapReason, number>> | null {
  return bridge.stats === undefined ? null : { ...bridge.stats().gaps };
}

/** Registers the retention checks. */
export function retentionTests(kit: Kit): void {
  const { expect } = kit;
  const cap = (): number => kit.options.maxEventsPerRun;

  kit.test("an evicted cursor yields one gap with the retained bounds, then the iteration ends", async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("evicted");
    const before = gapCounts(bridge);
    const published = await publishMany(bridge, runId, cap() + 5);
    const id = (i: number): string => published[i]?.id as string;
    const latest = id(cap() + 4);
    for (const k of [0, 4]) {
      const items = plain(await new Reader(kit, runId, { lastEventId: id(k) }).rest());
      expect(items, `cursor of evicted event ${k}`).toEqual([
        {
          kind: "gap",
          runId,
          requestedEventId: id(k),
          earliestAvailableEventId: id(5),
          latestAvailableEventId: latest,
        },
      ]);
    }
    // The earliest retained event is a valid cursor; from the start means from it.
    const after5 = new Reader(kit, runId, { lastEventId: id(5) });
    const fromStart = new Reader(kit, runId);
    await bridge.publishEnd(runId);
    expect(plain(await after5.rest())).toEqual([...asEvents(published.slice(6)), { kind: "end" }]);
    expect(plain(await fromStart.rest())).toEqual([...asEvents(published.slice(5)), { kind: "end" }]);
    // After the end the gap still names the last event (the end marker is not an event).
    const afterEnd = plain(await new Reader(kit, runId, { lastEventId: id(0) }).rest());
    expect(afterEnd).toEqual([
      { kind: "gap", runId, requestedEventId: id(0), earliestAvailableEventId: id(5), latestAvailableEventId: latest },
    ]);
    if (before !== null) {
      expect(gapCounts(bridge), "stats().gaps after three stale cursors").toEqual({
        ...before,
        staleCursor: before.staleCursor + 3,
      });
    }
  });

  kit.test(
    "the end marker never evicts an event: exactly maxEventsPerRun events and the end replay in full",
    async () => {
      const bridge = kit.bridge();
      const runId = kit.runId("at-cap");
      const published = await publishMany(bridge, runId, cap());
      await bridge.publishEnd(runId);
      expect(plain(await new Reader(kit, runId).rest())).toEqual([...asEvents(published), { kind: "end" }]);
      // The first event is still retained, so it is a valid cursor (no gap).
      expect(plain(await new Reader(kit, runId, { lastEventId: published[0]?.id as string }).rest())).toEqual([
        ...asEvents(published.slice(1)),
        { kind: "end" },
      ]);
    },
  );

  kit.test(
    "a live subscriber that falls further behind than the retention gets a gap naming the last event it received",
    async () => {
      const bridge = kit.bridge();
      const runId = kit.runId("slow");
      const counted = gapCounts(bridge);
      const published = await publishMany(bridge, runId, 1);
      const reader = new Reader(kit, runId);
      const first = await reader.nextItem();
      expect(first && plain([first])).toEqual(asEvents(published));
      // The subscriber stops pulling while the run goes on.
      published.push(...(await publishMany(bridge, runId, cap() + 2, 1)));
      const rest = plain(await reader.rest());
      const gap = rest[rest.length - 1];
      if (gap?.kind !== "gap")
        throw new Error(`expected the subscription to end with a gap, got ${rest.map(describeItem).join(", ")}`);
      const before = rest.slice(0, -1);
      // Events a bridge had already read before the subscriber paused may still come first, in order.
      expect(before).toEqual(asEvents(published.slice(1, 1 + before.length)));
      const lastReceived =
        before.length === 0 ? (published[0]?.id as string) : (published[before.length]?.id as string);
      const total = published.length;
      expect(gap).toEqual<StreamGap>({
        kind: "gap",
        runId,
        requestedEventId: lastReceived,
        earliestAvailableEventId: published[total - cap()]?.id as string,
        latestAvailableEventId: published[total - 1]?.id as string,
      });
      if (counted !== null) {
        expect(gapCounts(bridge), "stats().gaps after a slow subscriber").toEqual({
          ...counted,
          slowSubscriber: counted.slowSubscriber + 1,
        });
      }
    },
  );
}
