import type { RunRecord } from "@deerflow/runtime";
import { describe, expect, it } from "vitest";
import { toWireRun } from "./wire.js";

const run: RunRecord = {
  runId: "r1",
  threadId: "t1",
  assistantId: "lead_agent",
  status: "success",
  onDisconnect: "continue",
  multitaskStrategy: "reject",
  metadata: {},
  kwargs: {},
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  startedAt: null,
  endedAt: null,
  error: null,
  stopReason: null,
  ownerId: null,
  cancelAction: null,
} as unknown as RunRecord;

describe("toWireRun", () => {
  it("carries the run's stop_reason (DeerFlow's RunResponse field) only when there is one", () => {
    expect(toWireRun({ ...run, stopReason: "loop_capped" })).toMatchObject({
      run_id: "r1",
      status: "success",
      stop_reason: "loop_capped",
    });
    expect(toWireRun(run)).not.toHaveProperty("stop_reason");
  });
});
