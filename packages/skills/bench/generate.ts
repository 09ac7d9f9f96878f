/** Generates a large, realistic-looking skills tree for the benchmarks. */
import fs from "node:fs/promises";
import path from "node:path";
import { mapConcurrent } from "../src/catalog/map-concurrent.js";

const WORDS = (
  "analyse report chart research data pipeline deploy review document summarise generate slides podcast image video " +
  "table spreadsheet csv excel pivot query sql schema api endpoint test suite coverage refactor module component " +
  "design accessible layout typography colour palette brand market competitor finance forecast budget invoice " +
  "contract clause compliance audit security threat model incident runbook alert metric dashboard latency trace " +
  "translate localise glossary tone style guide newsletter digest citation source paper survey literature abstract"
).split(" ");

/** Deterministic PRNG (mulberry32), so every run benchmarks the same tree. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rand: () => number, minChars: number, maxChars: number): string {
  const target = minChars + Math.floor(rand() * (maxChars - minChars));
  const words: string[] = [];
  let length = 0;
  while (length < target) {
    const w = WORDS[Math.floor(rand() * WORDS.length)] as string;
    words.push(w);
    length += w.length + 1;
  }
  const text = words.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** What {@link generateSkillTree} wrote. */
export interface GeneratedTree {
  /** Every SKILL.md written, for the read-only baseline. */
  readonly files: readonly string[];
}

/**
 * Writes `count` skills under `root`: 80% public (a tenth of them inside
 * namespace folders, some with a directory name that differs from the skill
 * name, some with allowed-tools or metadata) and 20% custom. Descriptions are
 * 148 to 623 characters, the range of DeerFlow's bundled skills; bodies are
 * 1 to 3 KB.
 *
 * @param root - An empty directory.
 * @param count - Number of skills.
 * @returns The SKILL.md paths.
 */
export async function generateSkillTree(root: string, count: number): Promise<GeneratedTree> {
  const rand = prng(20261122);
  const jobs = Array.from({ length: count }, (_, i) => {
    const name = `bench-skill-${String(i).padStart(5, "0")}`;
    const category = i % 5 === 4 ? "custom" : "public";
    let rel = name;
    if (category === "public" && i % 10 === 3) rel = `team-${i % 7}/${name}`;
    else if (category === "public" && i % 50 === 1) rel = `${name}-claimable`;
    const extra = [
      i % 25 === 0 ? "allowed-tools:\n  - read_file\n  - bash\n" : "",
      i % 9 === 0 ? 'metadata:\n  author: bench\n  version: "1.0"\n' : "",
      i % 4 === 0 ? "license: MIT\n" : "",
    ].join("");
    const description = sentence(rand, 148, 600);
    const body = Array.from({ length: 4 + Math.floor(rand() * 8) }, () => sentence(rand, 120, 260)).join("\n\n");
    const text = `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n\n# ${name}\n\n${body}\n`;
    return { file: path.join(root, category, ...rel.split("/"), "SKILL.md"), text };
  });
  await mapConcurrent(jobs, 64, async (job) => {
    await fs.mkdir(path.dirname(job.file), { recursive: true });
    await fs.writeFile(job.file, job.text);
  });
  return { files: jobs.map((j) => j.file) };
}
