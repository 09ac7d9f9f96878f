/**
 * `pnpm bench`: the overhead of delegating a trivial task through the executor
 * (semaphore, tool selection, streamed run, step capture) against invoking the
 * same agent directly with `createAgent(...).invoke`, in the same run.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { SubagentExecutor, SubagentRegistry, GENERAL_PURPOSE_SUBAGENT } from "../src/index.js";
import { appendRows, printFigure, type Figure } from "./report.js";

const RUNS = Number(process.env["BENCH_RUNS"] ?? 200);
const WARMUP = 20;

async function median(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const reply = () => fakeModel().respond(new AIMessage("done"));
const registry = new SubagentRegistry();
const executor = new SubagentExecutor({ registry });
let n = 0;

const direct = await median(async () => {
  const agent = createAgent({ model: reply(), tools: [], systemPrompt: GENERAL_PURPOSE_SUBAGENT.systemPrompt ?? "" });
  await agent.invoke({ messages: [new HumanMessage("Say done.")] });
});
const delegated = await median(async () => {
  n += 1;
  const result = await executor.execute(
    {
      id: `call_${n}`,
      subagentType: "general-purpose",
      description: "trivial",
      prompt: "Say done.",
      traceId: `bench-${n}`,
    },
    { model: reply(), tools: [] },
  );
  if (result.status !== "completed") throw new Error(`unexpected status ${result.status}`);
});

const figures: Figure[] = [
  {
    benchmark: `subagents: delegate a trivial task through SubagentExecutor, median of ${RUNS}`,
    figure: `${delegated.toFixed(2)} ms`,
    baseline: `${direct.toFixed(2)} ms (createAgent(...).invoke of the same agent, same run)`,
    ratio: delegated / direct,
  },
];
process.stdout.write(`@deerflow/subagents benchmarks (fake model, ${RUNS} runs after ${WARMUP} warm-up)\n`);
for (const f of figures) printFigure(f);
await appendRows(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../BENCHMARKS.md"), figures);
process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
