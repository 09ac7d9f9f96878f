/**
 * `pnpm bench` (after run.ts): the lead chain's overhead per model call. The
 * same fast fake model (the gateway benchmark's: 20 tokens, no tool calls, no
 * sleeps) answers one model call per `invoke`, once through `createLeadAgent`
 * (its whole chain, no sandbox: what a run without tools pays) and once through
 * a bare `createAgent` with no middleware, in-process, alternating segments
 * (A B B A …). Figure: the median `invoke` time of the lead agent; baseline:
 * the bare agent's; goal ratio ≤ 1.2. A second row takes as baseline a bare
 * `createAgent` with the lead's tools (no middleware): an agent with tools has
 * LangGraph's tools node and the router after the model node, which the first
 * baseline has not, so this row is what the middleware chain itself costs.
 *
 * Env: BENCH_CALLS (calls per agent, default 2000), BENCH_WARMUP (default 200),
 * BENCH_NO_APPEND=1 (print only).
 */
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { appendRows, printFigure, type Figure } from "../../scripts/lib/bench-report.mjs";
// The agent package as published (its built dist, as the server benchmark uses it): run from its
// sources by tsx, every closure the chain creates per call would also pay esbuild's keepNames
// helper, which LangChain's own (prebuilt) code and so the baselines never pay.
import { createLeadAgent, staticModels } from "@deerflow/agent";
import { positiveInt } from "../gateway/harness.js";
import { FastModel } from "./fast-model.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CALLS = positiveInt("BENCH_CALLS", 2000);
const WARMUP = positiveInt("BENCH_WARMUP", 200);
const SEGMENTS = 8;

// `langchain` is the agent package's dependency: the bare agent uses the very same copy.
const langchainPath = createRequire(path.resolve(HERE, "../../packages/agent/package.json")).resolve("langchain");
interface Invokable {
  invoke(input: unknown, config?: unknown): Promise<unknown>;
}
/** What the benchmark reads of a `ReactAgent`: its tools and its middlewares' tools. */
interface WithTools {
  readonly options: { readonly tools?: unknown[]; readonly middleware?: readonly { readonly tools?: unknown[] }[] };
}
// Typed by hand: the benchmark does not depend on langchain itself.
const { createAgent } = (await import(pathToFileURL(langchainPath.replace(/\.cjs$/, ".js")).href)) as {
  createAgent(params: { model: unknown; tools: unknown[]; middleware: unknown[] }): Invokable;
};

const model = new FastModel({});
const leadAgent = await createLeadAgent({ models: staticModels({ fast: model }) });
const lead: Invokable = leadAgent;
const bare: Invokable = createAgent({ model, tools: [], middleware: [] });
// The lead's tools (its own and its middlewares': ask_clarification, write_todos), on a bare agent.
const { options } = leadAgent as unknown as WithTools;
const leadTools = [...(options.tools ?? []), ...(options.middleware ?? []).flatMap((m) => m.tools ?? [])];
const bareWithTools: Invokable = createAgent({ model, tools: leadTools, middleware: [] });

let thread = 0;
async function timed(agent: Invokable, calls: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await agent.invoke(
      { messages: [{ role: "user", content: "hello" }] },
      { configurable: { thread_id: `t${thread++}` } },
    );
    samples.push(performance.now() - started);
  }
  return samples;
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

const agents = { lead, bare, tools: bareWithTools } as const;
type Who = keyof typeof agents;
for (const agent of Object.values(agents)) await timed(agent, WARMUP);
const samples: Record<Who, number[]> = { lead: [], bare: [], tools: [] };
const perSegment = Math.max(1, Math.round(CALLS / SEGMENTS));
for (let i = 0; i < SEGMENTS; i++) {
  const order: readonly Who[] = i % 2 === 0 ? ["lead", "bare", "tools"] : ["tools", "bare", "lead"];
  for (const who of order) samples[who].push(...(await timed(agents[who], perSegment)));
}

const ours = median(samples.lead);
const theirs = median(samples.bare);
const withTools = median(samples.tools);
const figures: Figure[] = [
  {
    benchmark: `lead agent: chain overhead per model call (median invoke, one model call, createLeadAgent's whole chain without a sandbox, ${samples.lead.length} calls, in-process, 20-token fake model); lower is better, goal ratio ≤ 1.2`,
    figure: `${ours.toFixed(3)} ms`,
    baseline: `${theirs.toFixed(3)} ms (bare createAgent, no middleware, same model, same run)`,
    ratio: ours / theirs,
  },
  {
    benchmark: `lead agent: middleware chain overhead per model call against an agent with the same tools (median invoke, one model call, createLeadAgent's whole chain without a sandbox, ${samples.lead.length} calls, in-process, 20-token fake model); lower is better`,
    figure: `${ours.toFixed(3)} ms`,
    baseline: `${withTools.toFixed(3)} ms (bare createAgent with the lead's ${leadTools.length} tools, no middleware, same model, same run)`,
    ratio: ours / withTools,
  },
];
process.stdout.write("Lead chain overhead per model call\n");
for (const f of figures) printFigure(f);
if (process.env["BENCH_NO_APPEND"] === "1") {
  process.stdout.write("BENCH_NO_APPEND=1: BENCHMARKS.md left alone\n");
} else {
  await appendRows(path.resolve(HERE, "../../BENCHMARKS.md"), figures);
  process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
}
