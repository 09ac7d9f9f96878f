/**
 * One server process of `sqlite-run-store-processes.int.test.ts` (run with
 * `node --import tsx`). Arguments: the database file, a name, a round count.
 * Opens the store (migrating the file if it is first), prints `ready`, waits
 * for a line on stdin so that every process starts at once, runs the workload
 * and prints one JSON line with what it saw.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { RuntimeError } from "../../../src/errors.js";
import type { AdmitRunInput } from "../../../src/runs/run-store.js";
import { SqliteRunStore } from "../../../src/runs/sqlite/sqlite-run-store.js";
import type { MultitaskStrategy } from "../../../src/runs/types.js";

/** What a child reports. */
export interface ChildReport {
  name: string;
  /** Outcome of the reject admission of round `i`: `ok` or an error code. */
  reject: string[];
  /** Outcome of the interrupt admission of round `i`. */
  interrupt: string[];
  /** Run ids this child enqueued on the `queue` thread, in its creation order. */
  queued: string[];
  /** Broken invariants seen right after starting a queued run. */
  violations: string[];
  /** Unexpected errors (anything but the codes the contract allows). */
  errors: string[];
}

const [path, name, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);

function admission(threadId: string, multitaskStrategy: MultitaskStrategy): AdmitRunInput {
  return {
    runId: `run-${name}-${randomUUID()}`,
    threadId,
    assistantId: "agent",
    multitaskStrategy,
    onDisconnect: "cancel",
    metadata: { child: name },
    kwargs: { input: null, streamMode: ["values"] },
    ownerId: name!,
    ifNotExists: "create",
  };
}

function describe(err: unknown): string {
  return RuntimeError.isInstance(err) ? err.code : String(err);
}

/** Starts and finishes every run of `runIds` (oldest first), checking the thread's runs right after each start. */
async function drain(store: SqliteRunStore, runIds: string[], report: ChildReport): Promise<void> {
  for (const runId of runIds) {
    for (;;) {
      const outcome = await store.tryStartRun(runId);
      if (outcome.outcome === "started") break;
      if (outcome.outcome !== "blocked") throw new Error(`run ${runId} could not start: ${outcome.outcome}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // Newest first: every run after ours in this list is older and must be terminal; none newer may run.
    const runs = await store.listRuns("queue", { limit: 1000 });
    const at = runs.findIndex((r) => r.runId === runId);
    for (const [i, r] of runs.entries()) {
      if (i > at && (r.status === "pending" || r.status === "running"))
        report.violations.push(`${runId} started while older ${r.runId} was ${r.status}`);
      if (i < at && r.status === "running")
        report.violations.push(`${runId} started while newer ${r.runId} was running`);
    }
    await store.finishRun(runId, { status: "success", threadStatus: "idle" });
  }
}

async function main(): Promise<void> {
  const store = new SqliteRunStore({ path: path!, busyTimeoutMs: 60_000 });
  const report: ChildReport = { name: name!, reject: [], interrupt: [], queued: [], violations: [], errors: [] };
  const stdin = createInterface({ input: process.stdin });
  process.stdout.write("ready\n");
  await once(stdin, "line");
  for (let round = 0; round < rounds; round++) {
    for (const [strategy, outcomes] of [
      ["reject", report.reject],
      ["interrupt", report.interrupt],
    ] as const) {
      try {
        await store.admitRun(admission(`${strategy}-${round}`, strategy));
        outcomes.push("ok");
      } catch (err) {
        outcomes.push(describe(err));
        if (describe(err) !== "THREAD_BUSY") report.errors.push(`${strategy} ${round}: ${String(err)}`);
      }
    }
    report.queued.push((await store.admitRun(admission("queue", "enqueue"))).run.runId);
  }
  try {
    await drain(store, report.queued, report);
  } catch (err) {
    report.errors.push(`drain: ${String(err)}`);
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
  stdin.close();
  await store.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  // stdin would keep the process alive; the parent must see the exit.
  process.exit(1);
});
