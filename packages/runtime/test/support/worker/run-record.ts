/** Builds {@link RunRecord}s for worker tests. */
import { randomUUID } from "node:crypto";
import type { RunKwargs, RunRecord } from "../../../src/runs/types.js";

export function makeRun(
  kwargs: Partial<RunKwargs> & { threadId?: string; metadata?: Record<string, unknown> } = {},
): RunRecord {
  const { threadId, metadata, ...rest } = kwargs;
  const now = new Date().toISOString();
  return {
    runId: randomUUID(),
    threadId: threadId ?? randomUUID(),
    assistantId: "agent",
    status: "running",
    multitaskStrategy: "reject",
    onDisconnect: "continue",
    metadata: metadata ?? {},
    kwargs: { streamMode: ["values"], ...rest },
    createdAt: now,
    updatedAt: now,
    startedAt: now,
    endedAt: null,
    error: null,
    stopReason: null,
    ownerId: "test",
    cancelAction: null,
  };
}
