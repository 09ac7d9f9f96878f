// Printing and BENCHMARKS.md rows, shared by every package's `pnpm bench`.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";

const HEADER = `# Benchmarks

Rows are appended by \`pnpm bench\` (one row per figure, oldest first). Every figure is compared with
a baseline measured in the same run on the same machine, so rows from different machines are
comparable by their ratio, not their absolute values.

| column | meaning |
|---|---|
| date | UTC time of the run (ISO 8601) |
| machine | \`os.cpus()[0].model\`, core count, Node.js version |
| benchmark | package and what was measured (timings: median of N runs after warm-up runs) |
| figure | the measured value |
| baseline | the reference value from the same run, and what it is |
| ratio | figure ÷ baseline (below 1: cheaper than the baseline) |

| date | machine | benchmark | figure | baseline | ratio |
|---|---|---|---|---|---|
`;

/** `"<cpu model> ×<cores>, Node <version>"`. */
export function machineDescription() {
  const cpus = os.cpus();
  const model = (cpus[0]?.model ?? "unknown CPU").replace(/\s+/g, " ").trim();
  return `${model} ×${cpus.length}, Node ${process.version}`;
}

/** Formats a ratio with enough digits to be useful both near 1 and far below it. */
export function formatRatio(ratio) {
  if (ratio >= 10) return `${ratio.toFixed(1)}×`;
  if (ratio >= 0.01) return `${ratio.toFixed(3)}×`;
  return `${ratio.toExponential(2)}×`;
}

/** Prints one figure to stdout. */
export function printFigure(f) {
  process.stdout.write(
    `${f.benchmark}\n    figure ${f.figure}   baseline ${f.baseline}   ratio ${formatRatio(f.ratio)}\n`,
  );
}

/**
 * Appends one row per figure to `file`, creating it with the header first.
 *
 * @param file - Path of BENCHMARKS.md.
 * @param figures - The figures of this run.
 */
export async function appendRows(file, figures) {
  const date = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const machine = machineDescription();
  const cell = (s) => s.replace(/\|/g, "\\|");
  const rows = figures
    .map(
      (f) =>
        `| ${date} | ${cell(machine)} | ${cell(f.benchmark)} | ${cell(f.figure)} | ${cell(f.baseline)} | ${formatRatio(f.ratio)} |\n`,
    )
    .join("");
  if (!existsSync(file)) await fs.writeFile(file, HEADER);
  await fs.appendFile(file, rows);
}
