/**
 * The repository's own oxlint rule (scripts/lint/deerflow-rules.mjs), run by
 * the real oxlint on throwaway files: `instanceof` against a class imported
 * from another `@deerflow/*` package is reported, one against a class of the
 * same package is not.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const OXLINT = path.join(
  path.dirname(createRequire(path.join(ROOT, "package.json")).resolve("oxlint/package.json")),
  "bin/oxlint",
);

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Lints `source` (as `a.ts`) with only the repository rule on; returns "line:col message" per finding. */
function lint(source: string): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), "deerflow-lint-rule-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "a.ts"), source);
  const config = {
    plugins: [],
    categories: { correctness: "off" },
    jsPlugins: [path.join(ROOT, "scripts/lint/deerflow-rules.mjs")],
    rules: { "deerflow/no-cross-package-instanceof": "error" },
  };
  writeFileSync(path.join(dir, "oxlintrc.json"), JSON.stringify(config));
  const r = spawnSync(process.execPath, [OXLINT, "-c", "oxlintrc.json", "-f", "unix", "a.ts"], {
    cwd: dir,
    encoding: "utf8",
  });
  return r.stdout
    .split("\n")
    .filter((line) => line.startsWith("a.ts:"))
    .map((line) => line.replace(/^a\.ts:/, ""));
}

describe("deerflow/no-cross-package-instanceof", () => {
  it("reports instanceof against a class named or namespaced from another @deerflow package", () => {
    const found = lint(
      [
        'import { SandboxError } from "@deerflow/sandbox";',
        'import * as runtime from "@deerflow/runtime";',
        "export const a = (e: unknown) => e instanceof SandboxError;",
        "export const b = (e: unknown) => e instanceof runtime.RuntimeError;",
        "",
      ].join("\n"),
    );
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^3:\d+: `instanceof SandboxError` .* use SandboxError\.isInstance\(value\)/);
    expect(found[1]).toMatch(/^4:\d+: `instanceof runtime\.RuntimeError`/);
  }, 60_000);

  it("leaves classes of the same package and built-ins alone", () => {
    const found = lint(
      [
        'import { OpenRefusedError } from "./safe-open.js";',
        'import { Readable } from "node:stream";',
        "export const a = (e: unknown) => e instanceof OpenRefusedError || e instanceof Error || e instanceof Readable;",
        "",
      ].join("\n"),
    );
    expect(found).toEqual([]);
  }, 60_000);
});
