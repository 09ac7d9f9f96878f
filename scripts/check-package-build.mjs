#!/usr/bin/env node
// The `prepack` guard of every published package: `pnpm pack` / `pnpm publish`
// fail when the package's build is missing or older than its sources, so a
// tarball can never ship without dist/ or with a dist/ built from other code.
//
// Freshness is judged by content, not timestamps (a checkout or a turbo cache
// restore changes mtimes without changing code): tsup writes a source map next
// to each bundle, and its `sourcesContent` is the exact text of every source
// file that went into it. A bundle is stale when one of those files now reads
// differently or is gone. That includes sources from outside the package that
// were bundled into it (the private @deerflow/kernel), so a kernel change makes
// every package built with the old kernel stale.
//
// It also refuses a dist/ that still names @deerflow/kernel: the kernel is
// private and never published, so a bundle importing it, or a declaration file
// referencing it, would break every consumer (packages/kernel/README.md).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Every file path a manifest promises to consumers: `main`, `types`, `bin` and each `exports` target. */
export function declaredTargets(manifest) {
  const targets = new Set();
  const add = (value) => {
    if (typeof value === "string") {
      if (!value.endsWith("/package.json") && value !== "./package.json") targets.add(path.posix.normalize(value));
    } else if (value !== null && typeof value === "object") {
      for (const nested of Object.values(value)) add(nested);
    }
  };
  add(manifest.main);
  add(manifest.types);
  add(manifest.bin);
  add(manifest.exports);
  return [...targets].sort();
}

/** The private workspace package that must be bundled, never imported, by a published build. */
export const PRIVATE_KERNEL = "@deerflow/kernel";

// A module specifier naming the kernel: import/export ... from, import(), require(), /// <reference types>.
const KERNEL_REFERENCE =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+|<reference\s+types\s*=\s*)["']@deerflow\/kernel(?:\/[^"']*)?["']/;

function distFiles(dir, suffixes) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && suffixes.some((suffix) => entry.name.endsWith(suffix)))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

function sourceMaps(dir) {
  return distFiles(dir, [".js.map"]);
}

/** The bundles and declaration files under `distDir` that import or reference the private kernel. */
function kernelReferences(distDir) {
  return distFiles(distDir, [".js", ".mjs", ".cjs", ".d.ts", ".d.mts", ".d.cts"]).filter((file) =>
    KERNEL_REFERENCE.test(readFileSync(file, "utf8")),
  );
}

/** The first source of `mapFile` (outside node_modules: the package's own and bundled workspace sources) whose text differs from the build's, or undefined. */
function staleSource(pkgDir, mapFile) {
  const map = JSON.parse(readFileSync(mapFile, "utf8"));
  const root = path.resolve(path.dirname(mapFile), map.sourceRoot ?? "");
  const sources = map.sources ?? [];
  for (let i = 0; i < sources.length; i++) {
    const file = path.resolve(root, sources[i]);
    const relative = path.relative(pkgDir, file);
    if (relative.split(path.sep).includes("node_modules")) continue;
    const built = map.sourcesContent?.[i];
    if (typeof built !== "string") return { file: relative, reason: "has no recorded content" };
    if (!existsSync(file)) return { file: relative, reason: "was deleted" };
    if (readFileSync(file, "utf8") !== built) return { file: relative, reason: "changed" };
  }
  return undefined;
}

/**
 * Checks that the package in `pkgDir` is built, that its build matches its
 * sources, and that the build does not import the private kernel.
 *
 * @param pkgDir - The package folder (holding package.json and dist/).
 * @returns One sentence per problem; empty when the package may be packed.
 */
export function checkPackageBuild(pkgDir) {
  const manifest = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  const problems = [];
  for (const target of declaredTargets(manifest)) {
    if (!existsSync(path.join(pkgDir, target))) problems.push(`${target} is missing`);
  }
  const maps = sourceMaps(path.join(pkgDir, "dist"));
  if (maps.length === 0 && problems.length === 0)
    problems.push("dist/ has no source maps, so its freshness cannot be checked (build with sourcemap: true)");
  for (const mapFile of maps) {
    const stale = staleSource(pkgDir, mapFile);
    if (stale)
      problems.push(
        `${path.relative(pkgDir, mapFile).replace(/\.map$/, "")} is stale: ${stale.file} ${stale.reason} since the build`,
      );
  }
  for (const file of kernelReferences(path.join(pkgDir, "dist"))) {
    problems.push(
      `${path.relative(pkgDir, file)} imports ${PRIVATE_KERNEL}, which is never published: bundle it (tsup noExternal and dts.resolve)`,
    );
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const pkgDir = path.resolve(process.argv[2] ?? process.cwd());
  const problems = checkPackageBuild(pkgDir);
  if (problems.length > 0) {
    const name = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")).name;
    process.stderr.write(
      `${name} cannot be packed:\n${problems.map((p) => `  - ${p}`).join("\n")}\nRun \`pnpm --filter ${name} build\` first.\n`,
    );
    process.exit(1);
  }
}
