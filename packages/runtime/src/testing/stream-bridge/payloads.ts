/** Input: malformed cursors, data types, large and unicode payloads. */
import { RuntimeError } from "../../errors.js";
import { asEvents, plain, Reader, type Kit, type Published } from "./context.js";

const MALFORMED_CURSORS = [
  "abc",
  "1-2-3",
  "-5",
  "5",
  "1-",
  "-1-1",
  "1.5-0",
  " 1-0",
  "1-0 ",
  "１-0",
  "0x10-0",
  "99999999999999999999999-0",
  "1-99999999999999999999999",
];

/** Registers the input checks. */
export function payloadTests(kit: Kit): void {
  const { expect } = kit;
  kit.test("a malformed cursor fails with INVALID_ARGUMENT naming it (at subscribe or first pull)", async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("malformed");
    await bridge.publish(runId, "custom", {});
    for (const lastEventId of MALFORMED_CURSORS) {
      let error: unknown;
      try {
        for await (const item of bridge.subscribe(runId, { lastEventId })) {
          throw new Error(`cursor ${JSON.stringify(lastEventId)} was accepted: got ${item.kind}`);
        }
      } catch (err) {
        error = err;
      }
      if (!RuntimeError.isInstance(error) || error.code !== "INVALID_ARGUMENT") {
        throw new Error(
          `cursor ${JSON.stringify(lastEventId)}: expected RuntimeError INVALID_ARGUMENT, got ${String(error)}`,
        );
      }
      expect(error.message, `message for ${JSON.stringify(lastEventId)}`).toContain(
        JSON.stringify(lastEventId).slice(1, -1).trim(),
      );
    }
  });

  kit.test("event data of every JSON type round-trips exactly", async () => {
    const bridge = kit.bridge();
    const runId = kit.runId("types");
    const values: unknown[] = [
      null,
      true,
      false,
      0,
      42,
      -17.25,
      1e300,
      Number.MAX_SAFE_INTEGER,
      "",
      "text",
      [],
      {},
      [1, "two", null, [3, [4]], { five: 5 }],
      { a: [1, { b: null }], c: { d: { e: "f" } }, g: true, h: 0.5, "key with spaces": "v", "": "empty key" },
      {
        messages: [
          { type: "ai", content: "hi", tool_calls: [{ id: "call_1", name: "search", args: { q: "x" } }] },
          { run_id: "r", thread_id: "t" },
        ],
      },
    ];
    const published: Published[] = [];
    for (const data of values)
      published.push({ id: await bridge.publish(runId, "values", data), event: "values", data });
    await bridge.publishEnd(runId);
    const items = plain(await new Reader(kit, runId).rest());
    expect(items).toStrictEqual([...asEvents(published), { kind: "end" }]);
  });

  kit.test(
    "a 1 MB payload and unicode event names and data round-trip",
    async () => {
      const bridge = kit.bridge();
      const runId = kit.runId("large");
      const unit = 'é中文🌍 שלום 👩‍👩‍👧 \u0000\t\n"\\ ';
      const big = {
        text: unit.repeat(Math.ceil((1024 * 1024) / unit.length)),
        loneSurrogate: "\ud83d",
        nested: { emoji: "🦌🌊" },
      };
      const published: Published[] = [
        { id: await bridge.publish(runId, "messages|子图:节点", big), event: "messages|子图:节点", data: big },
        { id: await bridge.publish(runId, "custom", "ünïcødé ✓"), event: "custom", data: "ünïcødé ✓" },
      ];
      await bridge.publishEnd(runId);
      const items = plain(await new Reader(kit, runId).rest(30_000));
      expect(items).toStrictEqual([...asEvents(published), { kind: "end" }]);
    },
    60_000,
  );
}
