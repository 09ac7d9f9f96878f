// Extracts every ```ts block of a package README and typechecks them against
// the package source, so README examples cannot drift from the API.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** Every ```ts / ```typescript block of `<pkgDir>/README.md`, in order. */
export function readmeExamples(pkgDir) {
  const readme = readFileSync(path.join(pkgDir, "README.md"), "utf8");
  return [...readme.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

/**
 * Writes each block as its own module under `<pkgDir>/.readme-examples/` and
 * runs tsc with `paths` mapping the package's entry points to its source.
 * Returns tsc's exit status and output.
 */
export function compileReadmeExamples(pkgDir, paths) {
  const outDir = path.join(pkgDir, ".readme-examples");
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const files = readmeExamples(pkgDir).map((code, i) => {
    const name = `example-${i + 1}.ts`;
    writeFileSync(path.join(outDir, name), `${code}\nexport {};\n`);
    return name;
  });
  writeFileSync(
    path.join(outDir, "tsconfig.json"),
    JSON.stringify({
      extends: "../../../tsconfig.base.json",
      // An example shows one step: a value it creates is for the reader's code to use.
      compilerOptions: { noEmit: true, rootDir: "..", paths, noUnusedLocals: false, noUnusedParameters: false },
      files,
    }),
  );
  const tsc = createRequire(path.join(pkgDir, "package.json")).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", path.join(outDir, "tsconfig.json")], { encoding: "utf8" });
  return { count: files.length, status: r.status, output: `${r.stdout}${r.stderr}` };
}
