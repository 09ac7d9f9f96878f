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
 * Then the same on a light route (`GET /api/assistants/:id`, BENCH_AUTH_REQUESTS reads per
 * server per figure, default 4000), where the per-request cost of authentication weighs most.
 *
 * Last, the CPU time per request of the authentication alone, in-process (`cpuPerRequest`).
 *
 * Env: BENCH_AUTH_RUNS (runs per server per figure, default 240), BENCH_AUTH_CONCURRENCY
 * (default 10), BENCH_WARMUP (default 30), BENCH_NO_APPEND=1 (print only).
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { PasswordHasher, createGateway, type GatewayOptions } from "@deerflow/gateway";
import { MemoryAccountStore } from "@deerflow/runtime";
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
  type Sample,
  type Server,
  type Stats,
} from "./harness.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RUNS = positiveInt("BENCH_AUTH_RUNS", 240);
const REQUESTS = positiveInt("BENCH_AUTH_REQUESTS", 4000);
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

/** The system assistant's id (server-gateway.ts), read by the light-route figure. */
const ASSISTANT_ID = "fe096781-5601-53d2-b2f6-0d3403f7e9ca";

/**
 * `CONCURRENCY` loops share `requests` reads of one assistant (`GET /api/assistants/:id`, a cheap
 * route, so the authentication is a large share of each request). Samples carry the latency.
 */
async function lightSegment(
  server: Server,
  headers: Record<string, string>,
  requests: number,
): Promise<{ wallMs: number; samples: Sample[] }> {
  const url = `${server.apiUrl}/assistants/${ASSISTANT_ID}`;
  let issued = 0;
  const samples: Sample[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (issued < requests) {
        issued++;
        const t0 = performance.now();
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
        const latency = performance.now() - t0;
        samples.push({ ttfe: latency, ttft: latency, total: latency, events: 0 });
      }
    }),
  );
  return { wallMs: performance.now() - start, samples };
}

/**
 * CPU time per request of the authentication itself, without sockets or other processes: one
 * in-process gateway without authentication and one with accounts answer `app.inject` reads of
 * a trivial route, alternating rounds; the median of each is reported. On a shared machine this
 * is steadier than wall-clock rates: it counts only this process's CPU.
 */
async function cpuPerRequest(): Promise<Figure[]> {
  const light: NonNullable<GatewayOptions["routes"]>[number] = async (api) => {
    api.get("/light", async () => ({ ok: true }));
  };
  const open = await createGateway({ routes: [light] });
  const accounts = await createGateway({
    routes: [light],
    accounts: {
      store: new MemoryAccountStore(),
      secret: "b".repeat(32),
      passwordHasher: new PasswordHasher({ cost: 4 }),
    },
  });
  try {
    const init = await accounts.inject({ method: "POST", url: "/api/v1/auth/initialize", payload: ADMIN });
    const cookies = init.cookies as { name: string; value: string }[];
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const csrf = cookies.find((c) => c.name === "csrf_token")?.value ?? "";
    const created = await accounts.inject({
      method: "POST",
      url: "/api/v1/auth/api-keys",
      headers: { cookie, "x-csrf-token": csrf },
      payload: { name: "cpu" },
    });
    const key = created.json<{ key: string }>().key;
    const cases = [
      ["none", open, {}],
      ["session cookie", accounts, { cookie }],
      ["per-user API key", accounts, { "x-api-key": key }],
    ] as const;
    const n = 10_000;
    const samples = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    for (let round = 0; round < 5; round++) {
      for (const [name, app, headers] of cases) {
        for (let i = 0; i < 500; i++) await app.inject({ url: "/api/light", headers });
        const c0 = process.cpuUsage();
        for (let i = 0; i < n; i++) {
          const res = await app.inject({ url: "/api/light", headers });
          if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode}`);
        }
        const c = process.cpuUsage(c0);
        samples.get(name)?.push((c.user + c.system) / n);
      }
    }
    const median = (name: string): number => {
      const sorted = [...(samples.get(name) ?? [])].sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)] as number;
    };
    const base = median("none");
    return cases.slice(1).map(([name]) => ({
      benchmark: `gateway: CPU per request of authentication by ${name} (app.inject GET of a trivial route, in-process, median of 5 rounds of ${n}); lower is better, ratio = authenticated ÷ unauthenticated CPU`,
      figure: `${median(name).toFixed(1)} µs`,
      baseline: `${base.toFixed(1)} µs (the same route without authentication, same run)`,
      ratio: median(name) / base,
    }));
  } finally {
    await open.close();
    await accounts.close();
  }
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

  // The light route: the same comparison on a cheap read, where authentication weighs most.
  const lightKinds = [
    ["session cookie", { cookie: headers.cookie ?? "" }],
    ["per-user API key", { "x-api-key": key }],
  ] as const;
  for (const [, h] of lightKinds) await lightSegment(accounts, h, 500);
  await lightSegment(open, {}, 500);
  for (const [label, h] of lightKinds) {
    const measured = await alternateSegments(
      [open, accounts],
      SEGMENTS,
      (server) => lightSegment(server, server === open ? {} : h, Math.round(REQUESTS / SEGMENTS)),
      previous,
    );
    previous = measured.last;
    const without = measured.stats.get(open.name) as Stats;
    const withAuth = measured.stats.get(accounts.name) as Stats;
    const reqs = (v: number): string => `${v.toFixed(0)} req/s`;
    process.stdout.write(
      `  light route, ${label}: ${reqs(withAuth.runsPerSecond)} vs ${reqs(without.runsPerSecond)} without authentication\n`,
    );
    figures.push({
      benchmark: `gateway: authenticated request overhead on a light route (GET /api/assistants/:id), ${label}, ${CONCURRENCY} concurrent fetch loops, ${withAuth.runs} requests, in-memory account store; ratio = unauthenticated ÷ authenticated req/s, goal ≤ 1.1`,
      figure: reqs(withAuth.runsPerSecond),
      baseline: `${reqs(without.runsPerSecond)} (the same gateway without authentication, same run)`,
      ratio: without.runsPerSecond / withAuth.runsPerSecond,
    });
  }
} finally {
  await Promise.all(servers.map((s) => stopChild(s.child)));
  killChildrenNow();
}

figures.push(...(await cpuPerRequest()));
process.stdout.write(`gateway authentication overhead (${((performance.now() - benchStart) / 1000).toFixed(1)} s)\n`);
for (const f of figures) printFigure(f);
if (process.env["BENCH_NO_APPEND"] === "1") {
  process.stdout.write(`BENCH_NO_APPEND=1: BENCHMARKS.md left alone\n`);
} else {
  await appendRows(path.resolve(HERE, "../../BENCHMARKS.md"), figures);
  process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
}
