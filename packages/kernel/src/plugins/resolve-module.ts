/**
 * Resolution of a plugin's module specifier to a URL `import()` can load:
 * relative and absolute paths against the config folder, package names from
 * the config folder's (and the working directory's) `node_modules`, then from
 * the caller's own dependencies. Packages whose `exports` only have an
 * `import` condition are handled (CommonJS `require.resolve` refuses them).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Where a specifier was found. */
export interface ResolvedModule {
  /** URL or bare specifier to pass to `import()`. */
  readonly url: string;
  /** How it was found (for messages). */
  readonly from: "path" | "package" | "importer";
}

/** True for `./x`, `../x`, `/x` and `file:` specifiers. */
export function isPathSpecifier(specifier: string): boolean {
  return (
    specifier.startsWith("./") ||
    specifier.startsWith("../") ||
    specifier === "." ||
    specifier === ".." ||
    path.isAbsolute(specifier) ||
    specifier.startsWith("file:")
  );
}

function splitPackage(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split("/");
  const count = specifier.startsWith("@") ? 2 : 1;
  return {
    name: parts.slice(0, count).join("/"),
    subpath: parts.length > count ? `./${parts.slice(count).join("/")}` : ".",
  };
}

/** Picks the ESM target of an `exports` condition object (`import` > `node` > `default`), recursively. */
function pickCondition(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) {
    for (const t of target) {
      const found = pickCondition(t);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof target === "object" && target !== null) {
    const t = target as Record<string, unknown>;
    for (const key of ["import", "node", "default"]) {
      if (key in t) {
        const found = pickCondition(t[key]);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}

function entryOf(pkgDir: string, subpath: string): string | undefined {
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const exports = pkg["exports"];
  if (exports !== undefined) {
    const isSubpathMap =
      typeof exports === "object" &&
      exports !== null &&
      !Array.isArray(exports) &&
      Object.keys(exports).some((k) => k.startsWith("."));
    const target = isSubpathMap ? (exports as Record<string, unknown>)[subpath] : subpath === "." ? exports : undefined;
    const rel = pickCondition(target);
    return rel === undefined ? undefined : path.join(pkgDir, rel);
  }
  if (subpath !== ".") return path.join(pkgDir, subpath);
  const main =
    typeof pkg["module"] === "string" ? pkg["module"] : typeof pkg["main"] === "string" ? pkg["main"] : "index.js";
  return path.join(pkgDir, main);
}

function findInNodeModules(specifier: string, fromDir: string): string | undefined {
  // CommonJS resolution first (handles main, exports with require/default, symlinks).
  try {
    return createRequire(path.join(fromDir, "__deerflow_plugin_resolver__.js")).resolve(specifier);
  } catch {
    // fall through: an ESM-only package (exports with "import" only) or not installed
  }
  const { name, subpath } = splitPackage(specifier);
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const pkgDir = path.join(dir, "node_modules", name);
    if (existsSync(path.join(pkgDir, "package.json"))) {
      const entry = entryOf(pkgDir, subpath);
      if (entry !== undefined && existsSync(entry)) return entry;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Resolves a plugin module specifier.
 *
 * @param specifier - path or package name
 * @param searchDirs - folders to resolve from, in order (config folder, working directory)
 * @returns the URL to import, or `undefined` when the module cannot be found
 */
export function resolvePluginModule(specifier: string, searchDirs: readonly string[]): ResolvedModule | undefined {
  if (specifier.startsWith("file:")) return { url: specifier, from: "path" };
  if (isPathSpecifier(specifier)) {
    for (const dir of searchDirs) {
      const file = path.resolve(dir, specifier);
      if (existsSync(file)) return { url: pathToFileURL(file).href, from: "path" };
    }
    return undefined;
  }
  if (specifier.startsWith("node:")) return { url: specifier, from: "importer" };
  for (const dir of searchDirs) {
    const found = findInNodeModules(specifier, dir);
    if (found !== undefined) return { url: pathToFileURL(found).href, from: "package" };
  }
  return undefined;
}
