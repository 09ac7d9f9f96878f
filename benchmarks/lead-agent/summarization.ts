/**
 * `pnpm bench` (after run.ts): summarization's effect on the prompt. The real
 * DeerFlow server (sources, in process) with its lead agent on a model at the
 * scripted OpenAI-compatible endpoint of `@deerflow/agent/testing`, driven by
 * the `@langchain/langgraph-sdk` `Client`: one thread, 200 scripted turns
 * (a ~100-token user message, a ~100-token answer), once with
 * `summarization:` on (trigger 8000 tokens, keep 20 messages) and once without.
 * Prompt tokens per turn = the characters of every message the model was sent
 * (system prompt included) ÷ 4, langchain's approximation; the summary
 * model's own calls are counted apart.
 *
 * Env: BENCH_TURNS (default 200), BENCH_NO_APPEND=1 (print only).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { appendRows, printFigure, type Figure } from "../../scripts/lib/bench-report.mjs";
// Sources, run by tsx like the rest of the benchmark (the server app publishes no library entry).
import { startScriptedOpenAI, type RecordedRequest } from "../../packages/agent/src/testing/index.js";
import { createServer, createServerLogger, loadConfig } from "../../apps/server/src/index.js";
import { positiveInt } from "../gateway/harness.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TURNS = positiveInt("BENCH_TURNS", 200);
const TRIGGER_TOKENS = 8000;
const SENTENCE =
  "The survey team logged another stretch of the river, its depth, its flow and the birds on its banks. ";

const textOf = (m: Readonly<Record<string, unknown>>): string =>
  typeof m["content"] === "string"
    ? m["content"]
    : Array.isArray(m["content"])
      ? (m["content"] as { text?: string }[]).map((b) => b.text ?? "").join("")
      : "";
const isSummaryCall = (r: RecordedRequest): boolean =>
  textOf(r.messages.at(-1) ?? {}).includes("Messages to summarize:");
const promptTokens = (r: RecordedRequest): number =>
  Math.ceil(r.messages.reduce((n, m) => n + textOf(m).length, 0) / 4);

interface Outcome {
  readonly perTurn: number[];
  readonly summaries: number;
}

async function conversation(summarization: boolean): Promise<Outcome> {
  const openai = await startScriptedOpenAI({
    script: (request) =>
      isSummaryCall(request)
        ? { text: `Summary: the team surveyed the river. ${SENTENCE.repeat(3)}` }
        : { text: SENTENCE.repeat(4) },
  });
  const cwd = mkdtempSync(path.join(os.tmpdir(), "bench-summarization-"));
  const yaml = [
    "models:",
    "  - { name: main, model: scripted, base_url: " + openai.baseURL + ", api_key: bench, max_retries: 0 }",
    "storage: { data_dir: ./data }",
    summarization
      ? `summarization: { enabled: true, trigger: [{ type: tokens, value: ${TRIGGER_TOKENS} }], keep: { type: messages, value: 20 } }`
      : "",
  ].join("\n");
  writeFileSync(path.join(cwd, "config.yaml"), `${yaml}\n`);
  const server = await createServer(await loadConfig({ cwd, env: {} }), {
    cwd,
    env: {},
    consoleDir: false,
    logger: createServerLogger({ level: "error" }),
  });
  try {
    const url = await server.listen({ host: "127.0.0.1", port: 0 });
    const client = new Client({ apiUrl: `${url}/api`, apiKey: null, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();
    const perTurn: number[] = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      const before = openai.requests.length;
      await client.runs.wait(thread.thread_id, "lead_agent", {
        input: { messages: [{ type: "human", content: `Turn ${turn}. ${SENTENCE.repeat(4)}` }] },
      });
      const agentCalls = openai.requests.slice(before).filter((r) => !isSummaryCall(r));
      perTurn.push(Math.max(...agentCalls.map(promptTokens)));
    }
    return { perTurn, summaries: openai.requests.filter(isSummaryCall).length };
  } finally {
    await server.close({ drain: false });
    await openai.close();
    rmSync(cwd, { recursive: true, force: true });
  }
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

const without = await conversation(false);
const withSummary = await conversation(true);
const name = `lead-agent: prompt tokens per turn over ${TURNS} scripted turns, summarization (trigger ${TRIGGER_TOKENS} tokens, keep 20 messages) vs none`;
const figures: Figure[] = [
  {
    benchmark: `${name}, mean`,
    figure: `${Math.round(mean(withSummary.perTurn))} tokens (${withSummary.summaries} summaries)`,
    baseline: `${Math.round(mean(without.perTurn))} tokens without summarization`,
    ratio: mean(withSummary.perTurn) / mean(without.perTurn),
  },
  {
    benchmark: `${name}, turn ${TURNS}`,
    figure: `${withSummary.perTurn.at(-1) ?? 0} tokens`,
    baseline: `${without.perTurn.at(-1) ?? 0} tokens without summarization`,
    ratio: (withSummary.perTurn.at(-1) ?? 0) / (without.perTurn.at(-1) ?? 1),
  },
];
for (const f of figures) printFigure(f);
if (process.env["BENCH_NO_APPEND"] !== "1") await appendRows(path.resolve(HERE, "../../BENCHMARKS.md"), figures);
