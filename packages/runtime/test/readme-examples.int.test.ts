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
      "@deerflow/runtime": ["../src/index.ts"],
      "@deerflow/runtime/redis": ["../src/redis.ts"],
      "@deerflow/runtime/postgres": ["../src/postgres.ts"],
      "@deerflow/runtime/sqlite": ["../src/sqlite.ts"],
      "@deerflow/runtime/testing": ["../src/testing/index.ts"],
    });
    expect(r.output).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);
});
