import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compileReadmeExamples, readmeExamples } from "../../../scripts/lib/readme-examples.mjs";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("README examples", () => {
  it("has at least one TypeScript example", () => {
    expect(readmeExamples(pkgDir).length).toBeGreaterThan(0);
  });

  it("compiles every TypeScript example against the package source", () => {
    const r = compileReadmeExamples(pkgDir, {
      "@deerflow/tools": ["../src/index.ts"],
      "@deerflow/tools/testing": ["../src/testing/index.ts"],
    });
    expect(r.output).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);

  it("runs the first example as is, offline: each hostile URL is refused", () => {
    // compileReadmeExamples wrote .readme-examples/example-1.ts; it imports the package by name
    // (a self-reference, so the built dist/ is what runs, as a user would get it).
    const file = path.join(pkgDir, ".readme-examples", "example-1.ts");
    expect(readFileSync(file, "utf8")).toContain("createSafeFetch");
    const tsx = path.join(pkgDir, "node_modules", ".bin", "tsx");
    const r = spawnSync(tsx, [file], { cwd: pkgDir, encoding: "utf8", timeout: 60_000 });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim().split("\n")).toEqual([
      "Refusing to fetch 169.254.169.254: it is a metadata address (only public addresses are fetched)",
      "Refusing to fetch 127.0.0.1: it is a loopback address (only public addresses are fetched)",
      "Refusing to fetch ::ffff:a00:1: it is a private address (only public addresses are fetched)",
    ]);
    expect(r.status).toBe(0);
  }, 120_000);
});
