/** Ordering, ids, replay from every cursor form, and exact resume. */
import type { StreamItem } from "../../stream/stream-bridge.js";
import { asEvents, idAfter, idParts, plain, publishMany, Reader, type Kit } from "./context.js";

/** Registers the ordering and resume checks. */
export function orderingTests(kit: Kit): void {
  const { expect } = kit;
  // Below the retention cap, so nothing is evicted.
  const count = (): number => Math.min(kit.options.maxEventsPerRun, 40);

  kit.test("publish returns ids of the form <ms>-<seq>, strictly increasing in (ms, seq) order", async () => {
    const runId = kit.runId("ids");
    const published = await publishMany(kit.bridge(), runId, count());
    for (const p of published) idParts(p.id);
    for (let i = 1; i < published.length; i++) {
      const [prev, cur] = [published[i - 1]?.id as string, published[i]?.id as string];
      if (!idAfter(cur, prev)) throw new Error(`id ${cur} (event ${i}) is not after ${prev} (event ${i - 1})`);
    }
  });

  kit.test("publishes issued without awaiting the previous ones keep call order, each with its own id", async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("inflight");
    const n = count();
    const ids = await Promise.all(Array.from({ length: n }, (_, i) => bridge.publish(runId, "custom", { i })));
    for (let i = 1; i < ids.length; i++) {
      if (!idAfter(ids[i] as string, ids[i - 1] as string))
        throw new Error(`id of publish ${i} is not after the id of publish ${i - 1}`);
    }
    await bridge.publishEnd(runId);
    const items = await new Reader(kit, runId).rest();
    expect(plain(items)).toEqual([
      ...ids.map((id, i) => ({ kind: "event", id, event: "custom", data: { i } })),
      { kind: "end" },
    ]);
  });

  kit.test("live subscribers and a later replay see the same events, ids, data and order, then the end", async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("same");
    const first = new Reader(kit, runId);
    const second = new Reader(kit, runId);
    const pending = [first.pull(), second.pull()];
    const published = await publishMany(bridge, runId, count());
    await bridge.publishEnd(runId);
    await Promise.all(pending);
    const expected = [...asEvents(published), { kind: "end" }];
    expect(plain([...first.items, ...(await first.rest())])).toEqual(expected);
    expect(plain([...second.items, ...(await second.rest())])).toEqual(expected);
    expect(plain(await new Reader(kit, runId).rest())).toEqual(expected);
  });

  kit.test('every from-start cursor form (absent, null, "-1", "0", "0-0") replays everything retained', async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("forms");
    const published = await publishMany(bridge, runId, count());
    await bridge.publishEnd(runId);
    const expected = [...asEvents(published), { kind: "end" }];
    expect(plain(await new Reader(kit, runId).rest()), "no options").toEqual(expected);
    for (const lastEventId of [undefined, null, "-1", "0", "0-0"]) {
      const options = lastEventId === undefined ? {} : { lastEventId };
      expect(plain(await new Reader(kit, runId, options).rest()), `lastEventId ${String(lastEventId)}`).toEqual(
        expected,
      );
    }
  });

  kit.test("a cursor resumes strictly after its event; the last id resumes at the end", async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("resume");
    const published = await publishMany(bridge, runId, count());
    await bridge.publishEnd(runId);
    for (const k of [0, 1, Math.floor(published.length / 2), published.length - 2]) {
      const lastEventId = published[k]?.id as string;
      expect(plain(await new Reader(kit, runId, { lastEventId }).rest()), `after event ${k}`).toEqual([
        ...asEvents(published.slice(k + 1)),
        { kind: "end" },
      ]);
    }
    const lastEventId = published[published.length - 1]?.id as string;
    expect(plain(await new Reader(kit, runId, { lastEventId }).rest())).toEqual([{ kind: "end" }]);
  });

  kit.test(
    "a subscriber that aborts and resumes from its last id, while publishing goes on, loses and repeats nothing",
    async () => {
      const bridge = kit.bridge();
      const runId = kit.runId("reconnect");
      const total = count();
      const half = Math.floor(total / 2);
      const published = await publishMany(bridge, runId, half);
      const received: unknown[] = [];
      let lastEventId: string | null = null;
      let publishedMore = false;
      for (let round = 0; round < total * 2; round++) {
        const reader: Reader = new Reader(kit, runId, { lastEventId });
        let ended = false;
        // Up to 3 items per connection, then "disconnect".
        for (let n = 0; n < 3; n++) {
          const item: StreamItem | null = await reader.nextItem();
          if (item === null) throw new Error("the iteration ended without an end item");
          if (item.kind === "end") {
            ended = true;
            break;
          }
          if (item.kind !== "event") throw new Error(`unexpected ${item.kind} while resuming`);
          received.push({ kind: "event", id: item.id, event: item.event, data: item.data });
          lastEventId = item.id;
        }
        await reader.close();
        if (ended) break;
        if (!publishedMore && received.length >= half / 2) {
          publishedMore = true;
          published.push(...(await publishMany(bridge, runId, total - half, half)));
          await bridge.publishEnd(runId);
        }
      }
      expect(publishedMore).toBe(true);
      expect(received).toEqual(asEvents(published));
    },
  );

  kit.test("a cursor newer than anything published waits (heartbeats only), then sees the end", async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("future");
    const published = await publishMany(bridge, runId, 3);
    const [ms, seq] = idParts(published[2]?.id as string);
    const reader = new Reader(kit, runId, { lastEventId: `${ms + 60_000n}-${seq + 1000n}`, heartbeatMs: 50 });
    const first = await reader.next();
    expect(first.done !== true && first.value.kind).toBe("heartbeat");
    await bridge.publishEnd(runId);
    expect(await reader.rest()).toEqual([{ kind: "end" }]);
  });

  kit.test("runs are independent: each subscriber sees only its run's events", async () => {
    const bridge = kit.bridge();
    const [a, b] = [kit.runId("run-a"), kit.runId("run-b")];
    const fromA = [];
    const fromB = [];
    for (let i = 0; i < 10; i++) {
      fromA.push({ id: await bridge.publish(a, "custom", { run: "a", i }), event: "custom", data: { run: "a", i } });
      fromB.push({ id: await bridge.publish(b, "values", { run: "b", i }), event: "values", data: { run: "b", i } });
    }
    await Promise.all([bridge.publishEnd(a), bridge.publishEnd(b)]);
    expect(plain(await new Reader(kit, a).rest())).toEqual([...asEvents(fromA), { kind: "end" }]);
    expect(plain(await new Reader(kit, b).rest())).toEqual([...asEvents(fromB), { kind: "end" }]);
  });
}
