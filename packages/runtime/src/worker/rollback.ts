/**
 * Undoing a run's effect on its thread (cancel action `rollback`).
 *
 * The run's checkpoints are kept as history; the thread's head becomes a copy
 * of the checkpoint it had before the run, written as a new, newer checkpoint.
 * `getTuple` / `graph.getState` then return the pre-run state and the next run
 * continues from it.
 *
 * Limitation: pending writes of the pre-run checkpoint (e.g. the `__interrupt__`
 * writes of a thread that was waiting for a resume) are not copied. LangGraph
 * keys them by task ids derived from the checkpoint id, so they cannot be
 * re-attached to the copy. The state and `next` are restored; an interrupted
 * node simply runs again (as it does on every resume) and raises its interrupt
 * again, and a plain `Command({ resume })` still resumes it.
 */
import {
  copyCheckpoint,
  maxChannelVersion,
  uuid6,
  type BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
} from "@langchain/langgraph-checkpoint";

/**
 * Gives every channel of `copy` one fresh version, newer than any version the
 * thread used so far, and maps `versions_seen` along (a node that had seen a
 * channel's pre-run version has seen the fresh one; older entries stay older,
 * so exactly the same nodes are due as before the run).
 *
 * Why: savers such as PostgreSQL store channel values as blobs keyed by
 * (channel, version) and ignore a second write of a key. Had the copy kept the
 * pre-run versions, the next run would reuse the versions the rolled-back run
 * already wrote, and read the rolled-back values back.
 */
function renumberChannelVersions(
  checkpointer: BaseCheckpointSaver,
  copy: Checkpoint,
  preRunVersions: ChannelVersions,
  headVersions: ChannelVersions,
): void {
  const all = [...Object.values(preRunVersions), ...Object.values(headVersions)];
  const top = all.length > 0 ? maxChannelVersion(...all) : undefined;
  const fresh = checkpointer.getNextVersion(top as never) as ChannelVersions[string];
  copy.channel_versions = Object.fromEntries(Object.keys(preRunVersions).map((channel) => [channel, fresh]));
  copy.versions_seen = Object.fromEntries(
    Object.entries(copy.versions_seen).map(([node, seen]) => [
      node,
      Object.fromEntries(
        Object.entries(seen).map(([channel, version]) => [
          channel,
          channel in preRunVersions && version === preRunVersions[channel] ? fresh : version,
        ]),
      ),
    ]),
  );
}

/** What {@link restoreThreadCheckpoint} did. */
export type RestoreResult =
  /** The thread had no checkpoint before the run; all its checkpoints were deleted. */
  | { action: "deleted" }
  /** A copy of the pre-run checkpoint is the new head. */
  | { action: "restored"; checkpointId: string };

/**
 * Makes the thread's state what it was before a run.
 *
 * - `preRunCheckpointId === null`: the thread was empty, so it is reset with
 *   `checkpointer.deleteThread(threadId)`.
 * - otherwise: the pre-run checkpoint (root namespace) is copied under a fresh
 *   `uuid6` id with parent = current head, metadata `{source: "update", step:
 *   head step + 1}` and fresh channel versions, through `checkpointer.put` with
 *   every channel listed as new (blob-based savers such as PostgreSQL store
 *   their values again).
 *
 * @throws Error when the pre-run checkpoint no longer exists, or the saver fails.
 * @example
 * ```ts
 * const before = (await checkpointer.getTuple({ configurable: { thread_id, checkpoint_ns: "" } }))?.checkpoint.id ?? null;
 * // ... the run streams and is cancelled with action "rollback" ...
 * await restoreThreadCheckpoint(checkpointer, thread_id, before);
 * ```
 */
export async function restoreThreadCheckpoint(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
  preRunCheckpointId: string | null,
): Promise<RestoreResult> {
  if (preRunCheckpointId === null) {
    await checkpointer.deleteThread(threadId);
    return { action: "deleted" };
  }
  const preRun = await checkpointer.getTuple({
    configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: preRunCheckpointId },
  });
  if (!preRun) {
    throw new Error(
      `Cannot roll back thread ${threadId}: its pre-run checkpoint ${preRunCheckpointId} no longer exists`,
    );
  }
  const head = await checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
  const headId = head?.checkpoint.id ?? preRunCheckpointId;
  const headStep = typeof head?.metadata?.step === "number" ? head.metadata.step : (preRun.metadata?.step ?? -1);

  const step = headStep + 1;
  const copy = copyCheckpoint(preRun.checkpoint);
  // uuid6 ids sort by time, so the copy becomes the head; LangGraph uses the step as clock sequence too.
  copy.id = uuid6(step);
  copy.ts = new Date().toISOString();
  renumberChannelVersions(
    checkpointer,
    copy,
    preRun.checkpoint.channel_versions,
    head?.checkpoint.channel_versions ?? {},
  );
  // The copy is written by the rollback, not by the run that produced the pre-run state.
  const { run_id: _runId, ...inherited } = (preRun.metadata ?? {}) as Record<string, unknown>;
  const metadata = {
    ...inherited,
    source: "update",
    step,
    parents: {},
    rolled_back_from: headId,
    restored_from: preRunCheckpointId,
  } as CheckpointMetadata;
  const newVersions: ChannelVersions = { ...copy.channel_versions };
  await checkpointer.put(
    { configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: headId } },
    copy,
    metadata,
    newVersions,
  );
  return { action: "restored", checkpointId: copy.id };
}
