/** The workspace packages that are published to npm: every non-private package under packages/. */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../../scripts/lib/toolchain.mjs";

/** The parts of a package.json the pack check reads. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly license?: string;
  readonly repository?: { readonly type?: string; readonly url?: string; readonly directory?: string };
  readonly homepage?: string;
  readonly bugs?: { readonly url?: string };
  readonly files?: readonly string[];
  readonly exports?: Record<string, unknown>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
  readonly [key: string]: unknown;
}

/** A published workspace package. */
export interface PublishedPackage {
  readonly name: string;
  /** Its folder in the workspace. */
  readonly dir: string;
  readonly manifest: Manifest;
}

/** Reads a package.json. */
function readManifest(file: string): Manifest {
  return JSON.parse(readFileSync(file, "utf8")) as Manifest;
}

/** Every published package of the workspace, by folder name. */
export function publishedPackages(root: string = repoRoot): PublishedPackage[] {
  const packagesDir = path.join(root, "packages");
  return readdirSync(packagesDir)
    .sort()
    .map((name) => path.join(packagesDir, name))
    .filter((dir) => existsSync(path.join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: readManifest(path.join(dir, "package.json")) }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ name: manifest.name, dir, manifest }));
}

/** The subpaths a package exports as code (`"."`, `"./testing"`...), without `./package.json`. */
export function codeSubpaths(manifest: Manifest): string[] {
  return Object.keys(manifest.exports ?? {}).filter((key) => !key.endsWith("package.json"));
}

/** `@scope/name` + `"./x"` → `@scope/name/x`; `"."` → `@scope/name`. */
export function specifierOf(name: string, subpath: string): string {
  return subpath === "." ? name : `${name}/${subpath.replace(/^\.\//, "")}`;
}

/** The optional peer dependencies a manifest declares. */
export function optionalPeers(manifest: Manifest): string[] {
  return Object.keys(manifest.peerDependencies ?? {}).filter(
    (peer) => manifest.peerDependenciesMeta?.[peer]?.optional === true,
  );
}
