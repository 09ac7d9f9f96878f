/**
 * `pnpm bench` for @deerflow/sandbox: command latency of `execute("true")`
 * through the host runner, one bubblewrap per command, the isolated local
 * sandbox's bubblewrap executor (measured in alternation with its baseline)
 * and the remote service (p50 and p99, each against a bare
 * `child_process.spawn("true")` measured in the same run), and `grep` over
 * 10,000 generated files through the sandbox API
 * (ripgrep prefilter through the host runner and inside bubblewrap, and the
 * JavaScript search alone) against GNU `grep -rn` on the same tree, measured
 * in the same run. Every figure is printed and
 * appended to BENCHMARKS.md. `BENCH_EXEC_RUNS` and `BENCH_GREP_FILES`
 * override the run count and the tree size.
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  BubblewrapRunner,
  HostRunner,
  LocalSandbox,
  LocalSandboxProvider,
  RemoteSandboxProvider,
  WORKSPACE_PATH,
  type Sandbox,
} from "../src/index.js";
import { findExecutable } from "../src/exec/executables.js";
import { startRemoteService } from "../test/support/remote-service.js";
import { generateTextTree } from "./generate.js";
import { formatNs, percentile, sampleInterleavedNs, sampleNs } from "./measure.js";
import { appendRows, machineDescription, printFigure, type Figure } from "./report.js";

const EXEC_RUNS = Number(process.env["BENCH_EXEC_RUNS"] ?? 200);
const EXEC_WARMUP = 20;
const GREP_FILES = Number(process.env["BENCH_GREP_FILES"] ?? 10_000);
const GREP_RUNS = 15;
const NEEDLE = "zanzibar";
const here = path.dirname(fileURLToPath(import.meta.url));
const benchmarksFile = path.resolve(here, "../../../BENCHMARKS.md");

/** Runs `file args` to completion; rejects on a non-zero exit. */
function run(file: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "inherit"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0
        ? resolve(Buffer.concat(chunks).toString("utf8"))
        : reject(new Error(`${file} exited ${String(code)}`)),
    );
  });
}

async function executeTrue(sandbox: Sandbox): Promise<void> {
  const r = await sandbox.execute("true");
  if (r.exitCode !== 0) throw new Error(`execute("true") failed: ${JSON.stringify(r)}`);
}

interface Latency {
  readonly p50: number;
  readonly p99: number;
}

async function latency(fn: () => Promise<unknown>): Promise<Latency> {
  const samples = await sampleNs(fn, { warmup: EXEC_WARMUP, runs: EXEC_RUNS });
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

function latencyFigures(label: string, measured: Latency, baseline: Latency): Figure[] {
  const what = `sandbox: execute("true") through ${label}`;
  const n = `${EXEC_RUNS} runs after ${EXEC_WARMUP} warm-up`;
  return (["p50", "p99"] as const).map((p) => ({
    benchmark: `${what}, ${p} of ${n}`,
    figure: formatNs(measured[p]),
    baseline: `${formatNs(baseline[p])} (child_process.spawn("true") ${p}, same run)`,
    ratio: measured[p] / baseline[p],
  }));
}

/** p50 and p99 of the executor path, with the margin over the interleaved spawn baseline. */
function executorFigures(samples: readonly number[], baselineSamples: readonly number[]): Figure[] {
  const what = 'sandbox: execute("true") through the isolated local sandbox (bubblewrap executor)';
  const n = `${EXEC_RUNS} runs after ${EXEC_WARMUP} warm-up, interleaved with the baseline`;
  return ([50, 99] as const).map((p) => {
    const measured = percentile(samples, p);
    const base = percentile(baselineSamples, p);
    return {
      benchmark: `${what}, p${p} of ${n}`,
      figure: `${formatNs(measured)} (+${formatNs(measured - base)})`,
      baseline: `${formatNs(base)} (child_process.spawn("true") p${p}, interleaved, same run)`,
      ratio: measured / base,
    };
  });
}

async function main(): Promise<void> {
  process.stdout.write(
    `@deerflow/sandbox benchmarks: ${EXEC_RUNS} execs per runner, grep over ${GREP_FILES.toLocaleString("en-US")} files\n${machineDescription()}\n\n`,
  );
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-bench-")));
  await fs.chmod(tmp, 0o755);
  const figures: Figure[] = [];
  try {
    const baseline = await latency(() => run("true", []));

    const hostProvider = new LocalSandboxProvider({ baseDir: path.join(tmp, "host"), runner: new HostRunner() });
    const host = await hostProvider.acquire("bench-exec");
    figures.push(...latencyFigures("the host runner", await latency(() => executeTrue(host)), baseline));

    if (await BubblewrapRunner.isAvailable()) {
      const limits = { processes: 256, fileSizeBytes: 1 << 30 };
      const bwrapProvider = new LocalSandboxProvider({
        baseDir: path.join(tmp, "bwrap"),
        runner: new BubblewrapRunner({ executor: false }),
        limits,
      });
      const bwrap = await bwrapProvider.acquire("bench-exec");
      figures.push(...latencyFigures("bubblewrap, one per command", await latency(() => executeTrue(bwrap)), baseline));
      await bwrapProvider.shutdown();

      // The default: one long-lived executor per sandbox. Measured in alternation
      // with its own spawn baseline, since its target is an absolute margin.
      const executorProvider = new LocalSandboxProvider({
        baseDir: path.join(tmp, "executor"),
        runner: new BubblewrapRunner(),
        limits,
      });
      const isolated = await executorProvider.acquire("bench-exec");
      const [bare, viaExecutor] = await sampleInterleavedNs([() => run("true", []), () => executeTrue(isolated)], {
        warmup: EXEC_WARMUP,
        runs: EXEC_RUNS,
      });
      figures.push(...executorFigures(viaExecutor as number[], bare as number[]));
      await executorProvider.shutdown();
    } else {
      process.stdout.write("bubblewrap is not available here: its latency is not measured\n");
    }

    const service = await startRemoteService(["--base-dir", path.join(tmp, "remote"), "--log-level", "warn"]);
    try {
      const remoteProvider = new RemoteSandboxProvider({ url: service.url, idleTimeoutMs: 0 });
      const remote = await remoteProvider.acquire("bench-exec");
      const kind = (await BubblewrapRunner.isAvailable()) ? "bubblewrap" : "host bash";
      figures.push(
        ...latencyFigures(
          `the remote service (loopback HTTP, ${kind})`,
          await latency(() => executeTrue(remote)),
          baseline,
        ),
      );
      await remoteProvider.shutdown();
    } finally {
      await service.stop();
    }

    figures.push(...(await grepFigures(hostProvider)));
    await hostProvider.shutdown();

    for (const f of figures) printFigure(f);
    await appendRows(benchmarksFile, figures);
    process.stdout.write(`\nAppended ${figures.length} rows to ${path.relative(process.cwd(), benchmarksFile)}\n`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/**
 * grep of a rare literal over the generated tree: through the sandbox API with
 * ripgrep (host runner, and inside bubblewrap when usable) and with the
 * JavaScript search alone, each against GNU `grep -rn` on the host. The
 * samples are interleaved (one of each per round), so load that comes and
 * goes during the run weighs on every series alike.
 */
async function grepFigures(provider: LocalSandboxProvider): Promise<Figure[]> {
  const hostSandbox = await provider.acquire("bench-grep");
  const hostWorkspace = provider.threadPaths("bench-grep").workspace;
  const tree = await generateTextTree(hostWorkspace, GREP_FILES, NEEDLE);
  const viaGnu = async () => (await run("grep", ["-rn", NEEDLE, hostWorkspace])).split("\n").filter(Boolean).length;
  const sandboxes: [string, Sandbox][] = [];
  if (findExecutable("rg") === undefined) {
    process.stdout.write("ripgrep (rg) is not installed here: grep is measured without it only\n");
  } else {
    sandboxes.push(["LocalSandbox API, host runner, ripgrep prefilter", hostSandbox]);
    if (await BubblewrapRunner.isAvailable()) {
      // The same folders, searched by ripgrep inside the sandbox's bubblewrap view.
      sandboxes.push([
        "LocalSandbox API, ripgrep inside bubblewrap",
        new LocalSandbox({
          id: "local:default:bench-grep-bwrap",
          mounts: hostSandbox.mounts,
          runner: new BubblewrapRunner(),
        }),
      ]);
    }
  }
  sandboxes.push([
    "LocalSandbox API, JavaScript search alone",
    new LocalSandbox({
      id: "local:default:bench-grep-js",
      mounts: hostSandbox.mounts,
      runner: new HostRunner(),
      ripgrep: false,
    }),
  ]);
  // Both sides search case-sensitively for a plain word and must agree.
  const series: { label: string; count: () => Promise<number> }[] = [
    { label: "GNU grep", count: viaGnu },
    ...sandboxes.map(([label, sandbox]) => ({
      label,
      count: async () =>
        (await sandbox.grep(WORKSPACE_PATH, NEEDLE, { caseSensitive: true, maxResults: 500 })).matches.length,
    })),
  ];
  for (const entry of series) {
    const found = await entry.count();
    if (found !== tree.needleLines)
      throw new Error(`grep disagreement (${entry.label}): ${found} lines, expected ${tree.needleLines}`);
    await entry.count();
  }
  const samples = await sampleInterleavedNs(
    series.map((entry) => entry.count),
    { warmup: 0, runs: GREP_RUNS },
  );
  const [gnu, ...ours] = series.map((entry, i) => ({
    label: entry.label,
    median: percentile(samples[i] as number[], 50),
  }));
  const gnuNs = gnu?.median ?? Number.NaN;
  const size = `${GREP_FILES.toLocaleString("en-US")} files, ${(tree.bytes / 1e6).toFixed(1)} MB, ${tree.needleLines} matches`;
  return ours.map(({ label, median }) => ({
    benchmark: `sandbox: grep (${label}, case-sensitive) over ${size}, median of ${GREP_RUNS} interleaved rounds`,
    figure: formatNs(median),
    baseline: `${formatNs(gnuNs)} (GNU grep -rn on the same tree, spawned, same rounds)`,
    ratio: median / gnuNs,
  }));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
