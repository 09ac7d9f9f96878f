/** `pnpm pack` of a workspace package, the way `changeset publish` packs it (prepack guard included). */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describeResult, runCommand } from "./run-command.js";
import type { Manifest, PublishedPackage } from "./published-packages.js";

/** A packed package. */
export interface Tarball {
  readonly name: string;
  /** Absolute path of the .tgz. */
  readonly file: string;
  /** The tarball's own folder (`package/`), extracted. */
  readonly contentDir: string;
  /** The package.json inside the tarball (workspace ranges replaced). */
  readonly manifest: Manifest;
  /** Every path inside the tarball, relative to `package/`. */
  readonly files: readonly string[];
}

/**
 * Packs `pkg` into `destDir` with pnpm (its `prepack` guard runs) and extracts a copy.
 *
 * @throws with pnpm's output when packing fails (a missing or stale build).
 */
export async function packPackage(pkg: PublishedPackage, destDir: string): Promise<Tarball> {
  mkdirSync(destDir, { recursive: true });
  const before = new Set(readdirSync(destDir));
  const packed = await runCommand("pnpm", ["pack", "--pack-destination", destDir], { cwd: pkg.dir });
  const created = readdirSync(destDir).filter((f) => f.endsWith(".tgz") && !before.has(f));
  if (packed.code !== 0 || created.length !== 1) throw new Error(describeResult(`pnpm pack (${pkg.name})`, packed));
  const file = path.join(destDir, created[0] as string);
  const extractDir = path.join(destDir, `${path.basename(file, ".tgz")}-content`);
  mkdirSync(extractDir, { recursive: true });
  const extracted = await runCommand("tar", ["-xzf", file, "-C", extractDir], { cwd: destDir });
  if (extracted.code !== 0) throw new Error(describeResult(`tar -x ${file}`, extracted));
  const listed = await runCommand("tar", ["-tzf", file], { cwd: destDir });
  const files = listed.stdout
    .split("\n")
    .filter((l) => l !== "" && !l.endsWith("/"))
    .map((l) => l.replace(/^package\//, ""));
  const contentDir = path.join(extractDir, "package");
  const manifest = JSON.parse(readFileSync(path.join(contentDir, "package.json"), "utf8")) as Manifest;
  return { name: pkg.name, file, contentDir, manifest, files };
}
