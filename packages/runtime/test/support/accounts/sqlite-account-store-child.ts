/**
 * One process of test/accounts/sqlite-account-store-processes.int.test.ts:
 * opens the shared file (migrating it if needed), prints `ready`, waits for
 * a line, then races the other processes: one createFirstAdmin, then per round
 * a createUser with the round's email and `failures` login failures on the
 * round's key. Prints one JSON {@link ChildReport} line.
 */
import { once } from "node:events";
import { createInterface } from "node:readline";
import { SqliteAccountStore } from "../../../src/accounts/sqlite/sqlite-account-store.js";
import { RuntimeError } from "../../../src/errors.js";

/** What a child reports. */
export interface ChildReport {
  name: string;
  /** `ok` or the error code of createFirstAdmin. */
  firstAdmin: string;
  /** Per round: `ok` or the error code of createUser. */
  users: string[];
  /** The failure counts registerLoginFailure returned, all rounds. */
  failures: number[][];
  /** Anything unexpected. */
  errors: string[];
}

const [path, name, roundsText, failuresText] = process.argv.slice(2);
const rounds = Number(roundsText);
const failuresPerRound = Number(failuresText);
const store = new SqliteAccountStore({ path: path!, busyTimeoutMs: 20_000 });
const report: ChildReport = { name: name!, firstAdmin: "", users: [], failures: [], errors: [] };
const policy = { maxFailures: 1000, windowMs: 3_600_000, lockMs: 60_000 };

const outcome = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
    return "ok";
  } catch (err) {
    if (RuntimeError.isInstance(err) && err.code !== "STORE_UNAVAILABLE") return err.code;
    report.errors.push(String(err));
    return "error";
  }
};

const stdin = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
await once(stdin, "line");
report.firstAdmin = await outcome(
  store.createFirstAdmin({ email: `admin-${name}@example.com`, passwordHash: "h", systemRole: "admin" }),
);
for (let round = 0; round < rounds; round++) {
  report.users.push(
    await outcome(store.createUser({ email: `Round-${round}@Example.com`, passwordHash: "h", systemRole: "user" })),
  );
  const counts: number[] = [];
  for (let i = 0; i < failuresPerRound; i++) {
    try {
      counts.push((await store.registerLoginFailure(`ip-${round}`, policy)).failures);
    } catch (err) {
      report.errors.push(String(err));
    }
  }
  report.failures.push(counts);
}
await store.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
// An open stdin would keep the process alive; the parent waits for the exit.
stdin.close();
process.stdin.destroy();
