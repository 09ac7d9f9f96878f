import { describe, expect, it } from "vitest";
import { SSE_END, SSE_HEARTBEAT, gapFrame, sseFrame } from "./sse.js";

describe("sseFrame", () => {
  it("writes event, one data line and id, then a blank line", () => {
    expect(sseFrame("values", { a: "x\ny" }, "17-3")).toBe('event: values\ndata: {"a":"x\\ny"}\nid: 17-3\n\n');
  });

  it("omits an absent or empty id and sends null for missing data", () => {
    expect(sseFrame("end", undefined)).toBe("event: end\ndata: null\n\n");
    expect(sseFrame("x", null, "")).toBe("event: x\ndata: null\n\n");
  });

  it("keeps line separators inside strings escaped", () => {
    const frame = sseFrame("custom", { text: "a\r\nb\u2028c" }, "1-1");
    expect(frame.split("\n")).toHaveLength(5);
  });
});

describe("constants", () => {
  it("has a heartbeat that is a lone comment line and DeerFlow's end frame", () => {
    expect(SSE_HEARTBEAT).toBe(": heartbeat\n");
    expect(SSE_END).toBe("event: end\ndata: null\n\n");
  });
});

describe("gapFrame", () => {
  it("carries DeerFlow's resume hints and no id", () => {
    const frame = gapFrame({
      kind: "gap",
      runId: "r1",
      requestedEventId: "1-0",
      earliestAvailableEventId: "5-4",
      latestAvailableEventId: "9-8",
    });
    expect(frame).toBe(
      'event: gap\ndata: {"code":"stream_replay_gap","run_id":"r1","requested_event_id":"1-0","earliest_available_event_id":"5-4","latest_available_event_id":"9-8","recovery":"reload_durable_state"}\n\n',
    );
  });
});
