/**
 * How a run ended, as the worker reports it to its caller, and the outcome of
 * each way a run can stop early.
 */
import type { RunReport, RunTokenUsage } from "@deerflow/kernel";
import type { RunAbortAction } from "./types.js";

/** How a run ended, for the caller to record. */
export interface RunOutcome {
  status: "success" | "error" | "timeout" | "interrupted";
  /** Error text for `error` / `timeout` (and `Server shutting down` for shutdown); null otherwise. */
  error: string | null;
  /**
   * Thread status the run leaves behind (when no other run is active):
   * `interrupted` when the graph stopped at `interrupt()` / interruptBefore/After
   * or was cancelled with `interrupt`; `error` when it failed; else `idle`.
   */
  threadStatus: "idle" | "interrupted" | "error";
  /** True when the thread is back at its pre-run checkpoint after a rollback. */
  rolledBack: boolean;
  /** Why the graph stopped early, as it reported through its run report (`loop_capped`…); absent otherwise. */
  stopReason?: string;
  /** The tokens its model calls used, as the graph reported them (however the run ended); absent when none did. */
  tokenUsage?: RunTokenUsage;
}

/**
 * The outcome with the tokens the graph reported, whatever the outcome (a
 * failed or aborted run used its tokens too).
 */
export function withReportedTokens(outcome: RunOutcome, report: RunReport): RunOutcome {
  return report.tokenUsage === undefined ? outcome : { ...outcome, tokenUsage: report.tokenUsage };
}

/** The graph ran to its end; it may have stopped at an interrupt. */
function successOutcome(sawInterrupt: boolean): RunOutcome {
  return { status: "success", error: null, threadStatus: sawInterrupt ? "interrupted" : "idle", rolledBack: false };
}

/**
 * Outcome of a graph that ran to its end and reported, through its run report
 * (`@deerflow/kernel`'s `RUN_REPORT_KEY`), a stop reason or an error: an
 * error keeps the graph's state but ends the run as `error`.
 */
export function reportedOutcome(sawInterrupt: boolean, report: RunReport): RunOutcome {
  const base = report.error === undefined ? successOutcome(sawInterrupt) : errorOutcome(report.error);
  return report.stopReason === undefined ? base : { ...base, stopReason: report.stopReason };
}

/** The run failed with `error`. */
export function errorOutcome(error: string): RunOutcome {
  return { status: "error", error, threadStatus: "error", rolledBack: false };
}

/** The error a run that exceeded its `timeoutMs` reports (class name `TimeoutError`). */
export function timeoutError(timeoutMs: unknown): Error {
  const err = new Error(
    typeof timeoutMs === "number" ? `Run exceeded its timeout of ${timeoutMs} ms` : "Run exceeded its timeout",
  );
  err.name = "TimeoutError";
  return err;
}

/** Outcome of a run aborted for `action` (a rollback also depends on the thread's state: see `pre-run-checkpoint.ts`). */
export function abortOutcome(action: Exclude<RunAbortAction, "rollback">, timeoutMs: unknown): RunOutcome {
  switch (action) {
    case "interrupt":
      return { status: "interrupted", error: null, threadStatus: "interrupted", rolledBack: false };
    case "shutdown":
      return { status: "interrupted", error: "Server shutting down", threadStatus: "interrupted", rolledBack: false };
    case "ownership_lost":
      return errorOutcome("Run ownership lost");
    case "timeout":
      return { status: "timeout", error: timeoutError(timeoutMs).message, threadStatus: "error", rolledBack: false };
  }
}
