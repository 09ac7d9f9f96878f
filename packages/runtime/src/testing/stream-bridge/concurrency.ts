/** Many concurrent subscribers. */
import { asEvents, publishMany, Reader, within, type Kit, type Published } from "./context.js";
import type { StreamItem } from "../../stream/stream-bridge.js";

const SUBSCRIBERS = 50;
const EVENTS = 200;

/** Registers the concurrency checks. */
export function concurrencyTests(kit: Kit): void {
  const { expect } = kit;
  kit.test(
    `${SUBSCRIBERS} concurrent subscribers each receive the full sequence of ${EVENTS} events, then the end`,
    async () => {
      const bridge = kit.bridge();
      const runId = kit.runId("fanout");
      const received: StreamItem[][] = Array.from({ length: SUBSCRIBERS }, () => []);
      const progress = new Array<number>(SUBSCRIBERS).fill(0);
      const readers = Array.from({ length: SUBSCRIBERS }, () => new Reader(kit, runId));
      const done = readers.map(async (reader, index) => {
        for (;;) {
          const item = await reader.nextItem(30_000, `subscriber ${index}`);
          if (item === null) return;
          if (item.kind === "event") progress[index] = (progress[index] ?? 0) + 1;
          (received[index] as StreamItem[]).push({ ...item });
        }
      });
      // Publish in rounds of at most half the retention and let every subscriber catch up, so none can fall behind.
      const round = Math.max(1, Math.min(25, Math.floor(kit.options.maxEventsPerRun / 2)));
      const published: Published[] = [];
      while (published.length < EVENTS) {
        published.push(
          ...(await publishMany(bridge, runId, Math.min(round, EVENTS - published.length), published.length)),
        );
        const target = published.length;
        await within(
          (async () => {
            while (progress.some((n) => n < target)) await new Promise((resolve) => setTimeout(resolve, 2));
          })(),
          kit.ms(30_000),
          `all ${SUBSCRIBERS} subscribers to receive ${target} events (progress: min ${Math.min(...progress)})`,
        );
      }
      await bridge.publishEnd(runId);
      await within(Promise.all(done), kit.ms(30_000), "every subscription to end");
      const expected = [...asEvents(published), { kind: "end" }];
      for (let i = 0; i < SUBSCRIBERS; i++) expect(received[i], `subscriber ${i}`).toEqual(expected);
    },
    120_000,
  );
}
