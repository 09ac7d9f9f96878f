import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Every ```ts block of the README, in order. */
function readmeExamples(): string[] {
  const readme = readFileSync(path.join(pkgDir, "README.md"), "utf8");
  return [...readme.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

describe("README examples", () => {
  it("has at least one TypeScript example", () => {
    expect(readmeExamples().length).toBeGreaterThan(0);
  });

  it("compiles every TypeScript example against the package source", () => {
    const outDir = path.join(pkgDir, ".readme-examples");
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const files = readmeExamples().map((code, i) => {
      const file = path.join(outDir, `example-${i + 1}.ts`);
      // Each block is a module of its own, so top-level await and imports work.
      writeFileSync(file, `${code}\nexport {};\n`);
      return path.basename(file);
    });
    writeFileSync(
      path.join(outDir, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../tsconfig.base.json",
        compilerOptions: { noEmit: true, rootDir: "..", paths: { "@deerflow/skills": ["../src/index.ts"] } },
        files,
      }),
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", path.join(outDir, "tsconfig.json")], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);
});
