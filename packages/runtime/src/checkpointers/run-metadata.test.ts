import { MemorySaver, emptyCheckpoint, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { recordsRunMetadata, withRunMetadata } from "./run-metadata.js";

describe("withRunMetadata", () => {
  it("merges config metadata into checkpoint metadata; the loop's keys win and identity keys are skipped", async () => {
    const saver: BaseCheckpointSaver = withRunMetadata(new MemorySaver());
    const checkpoint = { ...emptyCheckpoint(), id: "1ef00000-0000-6000-8000-000000000001" };
    await saver.put(
      {
        configurable: { thread_id: "t", checkpoint_ns: "" },
        metadata: { run_id: "r", step: 99, thread_id: "t", __secret: 1, team: "core" },
      },
      checkpoint,
      { source: "loop", step: 1, parents: {} },
      {},
    );
    const tuple = await saver.getTuple({ configurable: { thread_id: "t" } });
    expect(tuple?.metadata).toEqual({ run_id: "r", team: "core", source: "loop", step: 1, parents: {} });
  });

  it("is idempotent and keeps the saver's other methods working", async () => {
    const raw = new MemorySaver();
    const once = withRunMetadata(raw);
    expect(withRunMetadata(once)).toBe(once);
    // Wrapping the same saver again gives the same view (graphs compiled for it stay reusable).
    expect(withRunMetadata(raw)).toBe(once);
    expect(once.getTuple).toBe(once.getTuple);
    expect(recordsRunMetadata(once)).toBe(true);
    expect(recordsRunMetadata(raw)).toBe(false);
    expect(once).toBeInstanceOf(MemorySaver);
    expect(await once.getTuple({ configurable: { thread_id: "none" } })).toBeUndefined();
    expect(once.getNextVersion(undefined)).toBe(1);
  });
});
