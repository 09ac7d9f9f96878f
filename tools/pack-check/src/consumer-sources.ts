/**
 * The code a third party writes against a package: its README's first
 * example, a TypeScript file per module system that imports every subpath
 * (compiled, never run), and a plain JavaScript probe per module system that
 * loads every subpath and reports what it got (run, never compiled).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { specifierOf } from "./published-packages.js";

/** What the probes print for one subpath. */
type ProbeOutcome = { readonly exports: readonly string[] } | { readonly missing: string } | { readonly error: string };

/** The probes' report: subpath (`"."`, `"./testing"`) → outcome. */
export type ProbeReport = Record<string, ProbeOutcome>;

/** Files written by {@link writeConsumerSources}, relative to the project. */
export const CONSUMER_FILES = {
  example: "example.ts",
  typesCjs: "consumer-types.cts",
  typesEsm: "consumer-types.mts",
  probeCjs: "probe.cjs",
  probeEsm: "probe.mjs",
  compiledExample: "out/example.js",
  kitTest: "kit.test.mjs",
} as const;

/**
 * Writes the consumer files and a tsconfig for them into `dir`.
 *
 * @param dir - The consumer project.
 * @param name - The package under test.
 * @param subpaths - Its code subpaths (`"."`, `"./testing"`...).
 * @param example - The README's first TypeScript example.
 */
export function writeConsumerSources(dir: string, name: string, subpaths: readonly string[], example: string): void {
  const specifiers = subpaths.map((s) => specifierOf(name, s));
  writeFileSync(path.join(dir, CONSUMER_FILES.example), `${example}\nexport {};\n`);
  // `import x = require()` from a .cts is what a CommonJS TypeScript project
  // writes; TypeScript resolves it with the "require" conditions.
  writeFileSync(
    path.join(dir, CONSUMER_FILES.typesCjs),
    `${specifiers.map((s, i) => `import entry${i} = require(${JSON.stringify(s)});`).join("\n")}\nexport const entries = [${specifiers.map((_, i) => `entry${i}`).join(", ")}];\n`,
  );
  writeFileSync(
    path.join(dir, CONSUMER_FILES.typesEsm),
    `${specifiers.map((s, i) => `import * as entry${i} from ${JSON.stringify(s)};`).join("\n")}\nexport const entries = [${specifiers.map((_, i) => `entry${i}`).join(", ")}];\n`,
  );
  const pairs = JSON.stringify(subpaths.map((s, i) => [s, specifiers[i]]));
  writeFileSync(path.join(dir, CONSUMER_FILES.probeCjs), probeSource("require(id)", pairs));
  writeFileSync(path.join(dir, CONSUMER_FILES.probeEsm), probeSource("await import(id)", pairs));
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    `${JSON.stringify(
      {
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          strict: true,
          skipLibCheck: true,
          types: ["node"],
          rootDir: ".",
          outDir: "out",
        },
        files: [CONSUMER_FILES.example, CONSUMER_FILES.typesCjs, CONSUMER_FILES.typesEsm],
      },
      null,
      2,
    )}\n`,
  );
}

/** A probe that loads each `[subpath, specifier]` of `pairs` with `load` and prints a {@link ProbeReport}. */
function probeSource(load: "require(id)" | "await import(id)", pairs: string): string {
  return `const report = {};
for (const [subpath, id] of ${pairs}) {
  try {
    report[subpath] = { exports: Object.keys(${load}).sort() };
  } catch (err) {
    const missing = /Cannot find (?:module|package) '([^']+)'/.exec(String(err?.message))?.[1];
    report[subpath] = missing !== undefined ? { missing } : { error: String(err?.stack ?? err) };
  }
}
process.stdout.write(JSON.stringify(report));
`;
}
