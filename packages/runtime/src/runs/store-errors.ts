/**
 * The errors every run store raises for the same refusals, so that the
 * memory, SQLite and PostgreSQL stores fail with the same codes, messages and
 * details.
 */
import { RuntimeError } from "../errors.js";

/** `THREAD_EXISTS` for creating a thread whose id is taken (`ifExists: "raise"`). */
export function threadExists(threadId: string): RuntimeError {
  return new RuntimeError("THREAD_EXISTS", `Thread ${threadId} already exists`, { details: { threadId } });
}

/** `THREAD_NOT_FOUND` for `threadId`. */
export function threadNotFound(threadId: string): RuntimeError {
  return new RuntimeError("THREAD_NOT_FOUND", `Thread ${threadId} not found`, { details: { threadId } });
}

/** `THREAD_BUSY` for deleting a thread that still has active runs. */
export function threadHasActiveRuns(threadId: string, activeRunIds: string[]): RuntimeError {
  return new RuntimeError(
    "THREAD_BUSY",
    `Thread ${threadId} has active runs (${activeRunIds.join(", ")}); cancel them first`,
    {
      details: { threadId, activeRunIds },
    },
  );
}

/** `THREAD_BUSY` for a `reject` admission on a thread with an active run (nothing is written). */
export function threadAlreadyActive(threadId: string, activeRunIds: string[]): RuntimeError {
  return new RuntimeError("THREAD_BUSY", `Thread ${threadId} already has an active run (${activeRunIds.join(", ")})`, {
    details: { threadId, activeRunIds },
  });
}

/** `THREAD_BUSY` for deleting a run that is still active. */
export function runStillActive(runId: string, threadId: string, status: string): RuntimeError {
  return new RuntimeError("THREAD_BUSY", `Run ${runId} is still ${status}; cancel it before deleting it`, {
    details: { runId, threadId, status },
  });
}

/** `INVALID_ARGUMENT` for an admission whose run id is taken (nothing is written). */
export function runIdTaken(runId: string): RuntimeError {
  return new RuntimeError("INVALID_ARGUMENT", `Run id ${runId} is already taken`, { details: { runId } });
}
