/**
 * What a freshly created checkpointer must already do before anything was
 * written to it (the savers create their tables lazily, `deleteThread` aside).
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { expect } from "vitest";

/** Deletes, reads and lists a thread that never had a checkpoint. */
export async function expectUsableBeforeFirstCheckpoint(checkpointer: BaseCheckpointSaver): Promise<void> {
  await expect(checkpointer.deleteThread("never-ran")).resolves.toBeUndefined();
  expect(await checkpointer.getTuple({ configurable: { thread_id: "never-ran" } })).toBeUndefined();
  const listed: unknown[] = [];
  for await (const tuple of checkpointer.list({ configurable: { thread_id: "never-ran" } })) listed.push(tuple);
  expect(listed).toEqual([]);
}
