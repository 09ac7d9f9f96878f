/**
 * `pnpm bench` for @deerflow/tools: every figure with a baseline measured in
 * the same run, printed and appended to BENCHMARKS.md. `BENCH_ONLY=mcp` or
 * `BENCH_ONLY=web-fetch` runs one part; `BENCH_NO_APPEND=1` prints only, as
 * the other benchmarks.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mcpFigures } from "./mcp.js";
import { appendRows, machineDescription, printFigure, type Figure } from "./report.js";
import { webFetchFigures } from "./web-fetch.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const benchmarksFile = path.resolve(here, "../../../BENCHMARKS.md");

async function main(): Promise<void> {
  process.stdout.write(`@deerflow/tools benchmarks\n${machineDescription()}\n\n`);
  const only = process.env["BENCH_ONLY"];
  if (only !== undefined && only !== "mcp" && only !== "web-fetch")
    throw new Error(`BENCH_ONLY must be mcp or web-fetch, not '${only}'`);
  const figures: Figure[] = [
    ...(only === undefined || only === "web-fetch" ? webFetchFigures() : []),
    ...(only === undefined || only === "mcp" ? await mcpFigures() : []),
  ];
  for (const f of figures) printFigure(f);
  if (process.env["BENCH_NO_APPEND"] === "1") {
    process.stdout.write("\nBENCH_NO_APPEND=1: BENCHMARKS.md left alone\n");
    return;
  }
  await appendRows(benchmarksFile, figures);
  process.stdout.write(`\nAppended ${figures.length} rows to ${path.relative(process.cwd(), benchmarksFile)}\n`);
}

await main();
