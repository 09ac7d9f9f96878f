import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { PRIVATE_KERNEL, checkPackageBuild, declaredTargets } from "../../../scripts/check-package-build.mjs";
import { repoRoot } from "../../../scripts/lib/toolchain.mjs";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const SOURCE = "export const answer = 42;\n";

/** A package whose dist/index.js was built from src/index.ts containing `builtFrom`. */
function builtPackage(builtFrom: string | undefined = SOURCE): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "deerflow-prepack-"));
  dirs.push(dir);
  mkdirSync(path.join(dir, "src"));
  mkdirSync(path.join(dir, "dist"));
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "@probe/p",
      exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" },
    }),
  );
  writeFileSync(path.join(dir, "src", "index.ts"), SOURCE);
  writeFileSync(path.join(dir, "dist", "index.js"), "export const answer = 42;\n//# sourceMappingURL=index.js.map\n");
  writeFileSync(path.join(dir, "dist", "index.d.ts"), "export declare const answer = 42;\n");
  const map = {
    version: 3,
    sources: ["../src/index.ts", "../node_modules/dep/index.js"],
    sourcesContent: [builtFrom, "bundled dependency"],
    mappings: "",
  };
  writeFileSync(path.join(dir, "dist", "index.js.map"), JSON.stringify(map));
  return dir;
}

describe("declaredTargets", () => {
  it("lists main, types, bin and every exports target except package.json", () => {
    const manifest = {
      main: "./dist/index.js",
      types: "./dist/index.d.ts",
      bin: { tool: "./dist/cli.js" },
      exports: {
        ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
        "./testing": { types: "./dist/testing.d.ts", default: "./dist/testing.js" },
        "./package.json": "./package.json",
      },
    };
    expect(declaredTargets(manifest)).toEqual([
      "dist/cli.js",
      "dist/index.d.ts",
      "dist/index.js",
      "dist/testing.d.ts",
      "dist/testing.js",
    ]);
  });
});

describe("checkPackageBuild", () => {
  it("accepts a build made from the current sources", () => {
    expect(checkPackageBuild(builtPackage())).toEqual([]);
  });

  it("refuses a package whose dist is missing", () => {
    const dir = builtPackage();
    rmSync(path.join(dir, "dist"), { recursive: true });
    expect(checkPackageBuild(dir)).toEqual(["dist/index.d.ts is missing", "dist/index.js is missing"]);
  });

  it("refuses a build older than its sources", () => {
    const dir = builtPackage("export const answer = 41;\n");
    expect(checkPackageBuild(dir)).toEqual(["dist/index.js is stale: src/index.ts changed since the build"]);
  });

  it("refuses a build that bundled a source file since deleted", () => {
    const dir = builtPackage();
    rmSync(path.join(dir, "src", "index.ts"));
    expect(checkPackageBuild(dir)).toEqual(["dist/index.js is stale: src/index.ts was deleted since the build"]);
  });

  it("refuses a build without source maps, whose freshness cannot be told", () => {
    const dir = builtPackage();
    rmSync(path.join(dir, "dist", "index.js.map"));
    expect(checkPackageBuild(dir)).toEqual([expect.stringContaining("no source maps")]);
  });

  it("refuses a build that bundled a workspace source from outside the package that has changed since", () => {
    const dir = builtPackage();
    const shared = path.join(dir, "..", `${path.basename(dir)}-kernel.ts`);
    writeFileSync(shared, "export const shared = 1;\n");
    dirs.push(shared);
    const mapFile = path.join(dir, "dist", "index.js.map");
    const map = JSON.parse(readFileSync(mapFile, "utf8")) as { sources: string[]; sourcesContent: string[] };
    map.sources.push(`../../${path.basename(shared)}`);
    map.sourcesContent.push("export const shared = 1;\n");
    writeFileSync(mapFile, JSON.stringify(map));
    expect(checkPackageBuild(dir)).toEqual([]);
    writeFileSync(shared, "export const shared = 2;\n");
    expect(checkPackageBuild(dir)).toEqual([
      `dist/index.js is stale: ../${path.basename(shared)} changed since the build`,
    ]);
  });

  it.each([
    ["dist/index.js", 'import { silentLogger } from "@deerflow/kernel";\n'],
    ["dist/index.js", 'const k = await import("@deerflow/kernel");\n'],
    ["dist/index.js", 'export { LruCache } from "@deerflow/kernel/cache";\n'],
    [
      "dist/index.d.ts",
      'import { DeerflowError } from "@deerflow/kernel";\nexport declare class E extends DeerflowError {}\n',
    ],
    ["dist/index.d.ts", '/// <reference types="@deerflow/kernel" />\n'],
  ])("refuses a build whose %s still names the private kernel (%j)", (file, text) => {
    const dir = builtPackage();
    writeFileSync(path.join(dir, file), text, { flag: "a" });
    expect(checkPackageBuild(dir)).toEqual([
      `${file} imports ${PRIVATE_KERNEL}, which is never published: bundle it (tsup noExternal and dts.resolve)`,
    ]);
  });

  it("accepts a build that only mentions the kernel in prose", () => {
    const dir = builtPackage();
    writeFileSync(
      path.join(dir, "dist", "index.d.ts"),
      "/** One definition, in the private @deerflow/kernel bundled into this build. */\n",
      { flag: "a" },
    );
    expect(checkPackageBuild(dir)).toEqual([]);
  });

  it("fails the command line with the problems and the build command", () => {
    const dir = builtPackage("stale\n");
    const r = spawnSync(process.execPath, [path.join(repoRoot, "scripts", "check-package-build.mjs")], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("@probe/p cannot be packed");
    expect(r.stderr).toContain("pnpm --filter @probe/p build");
    const fresh = spawnSync(process.execPath, [path.join(repoRoot, "scripts", "check-package-build.mjs")], {
      cwd: builtPackage(),
      encoding: "utf8",
    });
    expect(fresh.status).toBe(0);
  });
});
