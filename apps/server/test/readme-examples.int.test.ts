import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compileReadmeExamples, readmeExamples } from "../../../scripts/lib/readme-examples.mjs";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("README examples", () => {
  it("has TypeScript examples", () => {
    expect(readmeExamples(appDir).length).toBeGreaterThan(0);
  });

  it("compiles every TypeScript example against the source", () => {
    const r = compileReadmeExamples(appDir, { "@deerflow/server": ["../src/index.ts"] });
    expect(r.output).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);
});
