import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/**
 * The `version` of this package's own package.json, read at run time so the
 * bundled `dist/cli.js` and an installed copy both report what is installed.
 * The package resolves itself by name (its `exports` lists `./package.json`),
 * which finds the right file wherever the package sits.
 */
export async function readPackageVersion(): Promise<string> {
  const file = createRequire(import.meta.url).resolve("@deerflow/skills/package.json");
  const pkg = JSON.parse(await readFile(file, "utf8")) as { version?: unknown };
  if (typeof pkg.version !== "string") throw new Error(`${file} has no version`);
  return pkg.version;
}
