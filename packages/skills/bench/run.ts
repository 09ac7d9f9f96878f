/**
 * `pnpm bench` for @deerflow/skills: catalog scans, prompt rendering and
 * prompt size on a generated tree of 5,000 skills. Every figure is printed
 * with a baseline measured in the same run and appended to BENCHMARKS.md.
 * `BENCH_SKILLS_COUNT` and `BENCH_RUNS` override the tree size and run count.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SkillCatalog } from "../src/catalog/catalog.js";
import { mapConcurrent } from "../src/catalog/map-concurrent.js";
import { renderSkillSection } from "../src/prompt/render.js";
import { approximateTokenCount } from "../src/prompt/tokens.js";
import { generateSkillTree } from "./generate.js";
import { renderLegacySection } from "./legacy-format.js";
import { formatNs, medianNs } from "./measure.js";
import { appendRows, machineDescription, printFigure, type Figure } from "./report.js";

const COUNT = Number(process.env["BENCH_SKILLS_COUNT"] ?? 5000);
const RUNS = Number(process.env["BENCH_RUNS"] ?? 9);
const here = path.dirname(fileURLToPath(import.meta.url));
const benchmarksFile = path.resolve(here, "../../../BENCHMARKS.md");
const n = COUNT.toLocaleString("en-US");

async function main(): Promise<void> {
  process.stdout.write(`@deerflow/skills benchmarks: ${n} skills, median of ${RUNS} runs\n${machineDescription()}\n\n`);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "skills-bench-"));
  try {
    const root = path.join(tmp, "skills");
    const configPath = path.join(tmp, "extensions_config.json");
    const { files } = await generateSkillTree(root, COUNT);
    // Disable 2% of the skills so the disabled block is part of the measured prompt.
    const disabled = Object.fromEntries(
      files
        .filter((_, i) => i % 50 === 7)
        .map((f) => [path.basename(path.dirname(f)).replace(/-claimable$/, ""), { enabled: false }]),
    );
    await fs.writeFile(configPath, JSON.stringify({ mcpServers: {}, skills: disabled }, null, 2));
    const figures = [...(await scanFigures(root, configPath, files)), ...(await promptFigures(root, configPath))];
    for (const f of figures) printFigure(f);
    await appendRows(benchmarksFile, figures);
    process.stdout.write(`\nAppended ${figures.length} rows to ${path.relative(process.cwd(), benchmarksFile)}\n`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

async function scanFigures(root: string, configPath: string, files: readonly string[]): Promise<Figure[]> {
  const readAll = () => mapConcurrent(files, 32, (f) => fs.readFile(f, "utf8"));
  const baselineNs = await medianNs(readAll, { warmup: 2, runs: RUNS });
  const baseline = `${formatNs(baselineNs)} (fs.readFile of the same ${n} SKILL.md, 32 at a time)`;

  const coldNs = await medianNs(
    async () => {
      const catalog = new SkillCatalog({ root, extensionsConfigPath: configPath });
      const skills = await catalog.list();
      if (skills.length !== COUNT)
        throw new Error(
          `expected ${COUNT} skills, got ${skills.length}: ${JSON.stringify((await catalog.diagnostics()).slice(0, 3))}`,
        );
    },
    { warmup: 2, runs: RUNS },
  );

  const catalog = new SkillCatalog({ root, extensionsConfigPath: configPath });
  await catalog.list();
  const cachedNs = await medianNs(() => catalog.list(), { warmup: 1000, runs: RUNS, batch: 10_000 });
  const reloadNs = await medianNs(() => catalog.reload(), { warmup: 1, runs: RUNS });
  return [
    {
      benchmark: `skills: cold catalog scan of ${n} skills (new SkillCatalog + list())`,
      figure: formatNs(coldNs),
      baseline,
      ratio: coldNs / baselineNs,
    },
    {
      benchmark: "skills: warm catalog list() served from cache",
      figure: formatNs(cachedNs),
      baseline,
      ratio: cachedNs / baselineNs,
    },
    {
      benchmark: `skills: warm catalog full reload() of ${n} skills`,
      figure: formatNs(reloadNs),
      baseline,
      ratio: reloadNs / baselineNs,
    },
  ];
}

async function promptFigures(root: string, configPath: string): Promise<Figure[]> {
  const skills = await new SkillCatalog({ root, extensionsConfigPath: configPath }).list();
  const legacyNs = await medianNs(() => renderLegacySection(skills), { warmup: 5, runs: RUNS * 2 + 1 });
  // A fresh unfrozen copy defeats the identity memo, so the signature is hashed every time.
  const uncachedNs = await medianNs(() => renderSkillSection([...skills], { cache: false }), {
    warmup: 5,
    runs: RUNS * 2 + 1,
  });
  renderSkillSection(skills);
  const cachedHashNs = await medianNs(() => renderSkillSection([...skills]), { warmup: 5, runs: RUNS * 2 + 1 });
  const cachedFrozenNs = await medianNs(() => renderSkillSection(skills), { warmup: 100, runs: RUNS, batch: 1000 });

  const legacy = approximateTokenCount(renderLegacySection(skills)) / COUNT;
  const full = renderSkillSection(skills, { mode: "full", cache: false }).tokens / COUNT;
  const deferred = renderSkillSection(skills, { mode: "deferred", cache: false }).tokens / COUNT;
  const legacyRender = `${formatNs(legacyNs)} (DeerFlow legacy layout, plain concatenation)`;
  const uncached = `${formatNs(uncachedNs)} (our full render, uncached)`;
  const legacyTokens = `${legacy.toFixed(1)} tokens/skill (DeerFlow legacy layout)`;
  return [
    {
      benchmark: `skills: render the skills prompt section (full), uncached, ${n} skills`,
      figure: formatNs(uncachedNs),
      baseline: legacyRender,
      ratio: uncachedNs / legacyNs,
    },
    {
      benchmark: "skills: render full, cached (new array, content signature)",
      figure: formatNs(cachedHashNs),
      baseline: uncached,
      ratio: cachedHashNs / uncachedNs,
    },
    {
      benchmark: "skills: render full, cached (frozen catalog list)",
      figure: formatNs(cachedFrozenNs),
      baseline: uncached,
      ratio: cachedFrozenNs / uncachedNs,
    },
    {
      benchmark: "skills: prompt tokens per skill, full mode (approx.)",
      figure: `${full.toFixed(1)} tokens/skill`,
      baseline: legacyTokens,
      ratio: full / legacy,
    },
    {
      benchmark: "skills: prompt tokens per skill, deferred mode (approx.)",
      figure: `${deferred.toFixed(2)} tokens/skill`,
      baseline: legacyTokens,
      ratio: deferred / legacy,
    },
  ];
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
