/**
 * `pnpm bench` (after run.ts): the cost of authentication per run. The same
 * gateway as run.ts's (server-gateway.ts, in-memory runtime) runs twice, in
 * two child processes: once without authentication and once with user
 * accounts (`accounts`, in-memory account store). On the second, the driver
 * initializes the first admin, then drives runs
 *
 * - with the session cookie (and the CSRF header every POST then needs), and
 * - with a per-user API key (`X-API-Key: dfk_…`),
 *
 * each against the unauthenticated server in alternating segments (A B B A),
 * C concurrent SDK clients creating a thread and streaming a run to its end.
 * Every request of a run (thread create, run stream) is authenticated: a
 * signature check and two account-store reads for the cookie, a SHA-256 and
 * two reads for the key. Reported: runs/s of each and the ratio
 * unauthenticated ÷ authenticated (the slowdown; goal ≤ 1.1).
 *
 * Env: BENCH_AUTH_RUNS (runs per server per figure, default 240), BENCH_AUTH_CONCURRENCY
 * (default 10), BENCH_WARMUP (default 30), BENCH_NO_APPEND=1 (print only).
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { appendRows, printFigure, type Figure } from "../../scripts/lib/bench-report.mjs";
import {
  alternateSegments,
  killChildrenNow,
  positiveInt,
  rps,
  segment,
  startServer,
  stopChild,
  type Server,
  type Stats,
} from "./harness.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RUNS = positiveInt("BENCH_AUTH_RUNS", 240);
const CONCURRENCY = positiveInt("BENCH_AUTH_CONCURRENCY", 10);
const WARMUP = positiveInt("BENCH_WARMUP", 30);
const SEGMENTS = 4;
const ADMIN = { email: "bench@example.com", password: "bench-password-42" };

/** Signs the first admin in and creates a per-user key. */
async function credentials(server: Server): Promise<{ headers: Record<string, string>; key: string }> {
  const base = server.apiUrl.replace(/\/api$/, "");
  const res = await fetch(`${base}/api/v1/auth/initialize`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (res.status !== 201) throw new Error(`initialize answered ${res.status}: ${await res.text()}`);
  const cookies = new Map(
    res.headers.getSetCookie().map((line) => {
      const pair = line.split(";")[0] ?? "";
      return [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)] as const;
    }),
  );
  const headers = {
    cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    "x-csrf-token": cookies.get("csrf_token") ?? "",
  };
  const created = await fetch(`${base}/api/v1/auth/api-keys`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench" }),
  });
  if (created.status !== 201) throw new Error(`api-keys answered ${created.status}: ${await created.text()}`);
  return { headers, key: ((await created.json()) as { key: string }).key };
}

const benchStart = performance.now();
const servers: Server[] = [];
const figures: Figure[] = [];
try {
  const tsx = import.meta.resolve("tsx");
  const script = path.join(HERE, "server-gateway.ts");
  const options = { cwd: HERE, imports: [tsx], apiPrefix: "/api" };
  const [open, accounts] = await Promise.all([
    startServer("no auth", script, [], options),
    startServer("accounts", script, ["accounts"], options),
  ]);
  servers.push(open, accounts);
  const { headers, key } = await credentials(accounts);
  const make = (server: Server, extra: { apiKey?: string; defaultHeaders?: Record<string, string> }): Client[] =>
    Array.from(
      { length: CONCURRENCY },
      () =>
        new Client({ apiUrl: server.apiUrl, apiKey: extra.apiKey ?? null, callerOptions: { maxRetries: 0 }, ...extra }),
    );
  const kinds = [
    ["session cookie (+ X-CSRF-Token)", make(accounts, { defaultHeaders: headers })],
    ["per-user API key (X-API-Key)", make(accounts, { apiKey: key })],
  ] as const;
  const openClients = make(open, {});
  for (const [, clients] of kinds) await segment(clients, WARMUP, "agent");
  await segment(openClients, WARMUP, "agent");

  let previous: Server | undefined;
  const perSegment = Math.max(1, Math.round(RUNS / SEGMENTS));
  for (const [label, clients] of kinds) {
    const measured = await alternateSegments(
      [open, accounts],
      SEGMENTS,
      (server) => segment(server === open ? openClients : clients, perSegment, "agent"),
      previous,
    );
    previous = measured.last;
    const without = measured.stats.get(open.name) as Stats;
    const withAuth = measured.stats.get(accounts.name) as Stats;
    process.stdout.write(
      `  ${label}: ${rps(withAuth.runsPerSecond)} vs ${rps(without.runsPerSecond)} without authentication\n`,
    );
    figures.push({
      benchmark: `gateway: authenticated request overhead, ${label}, ${CONCURRENCY} concurrent SDK clients, ${withAuth.runs} runs (thread create + runs.stream to the end, every request authenticated, in-memory account store); ratio = unauthenticated ÷ authenticated runs/s, goal ≤ 1.1`,
      figure: rps(withAuth.runsPerSecond),
      baseline: `${rps(without.runsPerSecond)} (the same gateway without authentication, same run)`,
      ratio: without.runsPerSecond / withAuth.runsPerSecond,
    });
  }
} finally {
  await Promise.all(servers.map((s) => stopChild(s.child)));
  killChildrenNow();
}

process.stdout.write(`gateway authentication overhead (${((performance.now() - benchStart) / 1000).toFixed(1)} s)\n`);
for (const f of figures) printFigure(f);
if (process.env["BENCH_NO_APPEND"] === "1") {
  process.stdout.write(`BENCH_NO_APPEND=1: BENCHMARKS.md left alone\n`);
} else {
  await appendRows(path.resolve(HERE, "../../BENCHMARKS.md"), figures);
  process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
}
