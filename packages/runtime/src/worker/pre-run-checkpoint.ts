/**
 * Rollback of a cancelled run: the thread's head checkpoint is captured
 * before the graph starts, and restored when the run is cancelled with
 * `rollback`. Without a known pre-run point the thread is left as it is:
 * restoring nothing is safer than restoring the wrong thing.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Logger } from "../logger.js";
import { errorMessage } from "./error-event.js";
import { restoreThreadCheckpoint } from "./rollback.js";
import type { RunOutcome } from "./run-outcome.js";

/** The thread's state before the run. */
export interface PreRunCheckpoint {
  /** Head checkpoint id (null: the thread had none); undefined when unknown (no checkpointer, or the capture failed). */
  readonly id: string | null | undefined;
  /** The thread was stopped at an interrupt. */
  readonly interrupted: boolean;
}

/** Nothing known about the thread's state before the run. */
export const UNKNOWN_PRE_RUN: PreRunCheckpoint = { id: undefined, interrupted: false };

/** Reads the thread's head before the run; {@link UNKNOWN_PRE_RUN} (logged) when that fails. */
export async function capturePreRunCheckpoint(
  checkpointer: BaseCheckpointSaver | undefined,
  threadId: string,
  logger: Logger,
): Promise<PreRunCheckpoint> {
  if (!checkpointer) return UNKNOWN_PRE_RUN;
  try {
    const tuple = await checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
    return {
      id: tuple?.checkpoint.id ?? null,
      interrupted: (tuple?.pendingWrites ?? []).some(([, channel]) => channel === "__interrupt__"),
    };
  } catch (err) {
    // Fail closed: without a known pre-run point a rollback restores nothing rather than the wrong thing.
    logger.warn({ err: errorMessage(err) }, "could not capture the pre-run checkpoint; rollback disabled for this run");
    return UNKNOWN_PRE_RUN;
  }
}

/** What {@link rollBack} needs to know about the run. */
export interface RollbackContext {
  readonly checkpointer: BaseCheckpointSaver | undefined;
  readonly threadId: string;
  readonly preRun: PreRunCheckpoint;
  /** False when the run was cancelled before its graph started (nothing to undo). */
  readonly graphStarted: boolean;
  readonly logger: Logger;
}

/** Restores the thread to its pre-run checkpoint; the outcome of a run cancelled with `rollback`. */
export async function rollBack(context: RollbackContext): Promise<RunOutcome> {
  const { checkpointer, preRun, logger } = context;
  const threadStatus: RunOutcome["threadStatus"] = preRun.interrupted ? "interrupted" : "idle";
  const outcome = { status: "error" as const, error: "Rolled back by user", threadStatus };
  // Nothing ran, so nothing changed: the thread is at its pre-run state already.
  if (!context.graphStarted) return { ...outcome, rolledBack: true };
  if (!checkpointer || preRun.id === undefined) {
    logger.warn({}, "rollback requested but no pre-run checkpoint is known; thread state kept");
    return { ...outcome, rolledBack: false };
  }
  try {
    await restoreThreadCheckpoint(checkpointer, context.threadId, preRun.id);
    return { ...outcome, rolledBack: true };
  } catch (err) {
    logger.error({ err: errorMessage(err) }, "restoring the pre-run checkpoint failed");
    return {
      ...outcome,
      error: `Rolled back by user; restoring the pre-run checkpoint failed: ${errorMessage(err)}`,
      rolledBack: false,
    };
  }
}
