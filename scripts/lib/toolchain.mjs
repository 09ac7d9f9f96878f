// Bootstraps the pinned toolchain so that `npm start` and `npm test` work on a
// machine that has only Node 20 and npm. pnpm is installed into .tools/ (not
// globally) so the scripts need no root and never touch the user's setup.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const rootManifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
/** The pnpm version pinned by `packageManager`, e.g. "10.34.9". */
export const pinnedPnpm = String(rootManifest.packageManager).replace(/^pnpm@/, "");

const toolsBin = path.join(repoRoot, ".tools", "node_modules", ".bin");

/** Environment for child processes: local pnpm first on PATH, turbo quiet. */
export function toolEnv(extra = {}) {
  return {
    ...process.env,
    PATH: `${toolsBin}${path.delimiter}${process.env.PATH ?? ""}`,
    TURBO_TELEMETRY_DISABLED: "1",
    DO_NOT_TRACK: "1",
    ...extra,
  };
}

function versionOf(cmd, env) {
  const r = spawnSync(cmd, ["--version"], { env, encoding: "utf8", shell: false });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Runs a command inheriting stdio; returns its exit code. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: "inherit", env: toolEnv(opts.env), shell: false });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

/** Makes the pinned pnpm available (on PATH or in .tools/) and returns its env. */
export function ensurePnpm() {
  const env = toolEnv();
  if (versionOf("pnpm", env) === pinnedPnpm) return env;
  process.stdout.write(`[setup] installing pnpm@${pinnedPnpm} into .tools/\n`);
  const code = run("npm", [
    "install",
    "--prefix",
    path.join(repoRoot, ".tools"),
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    `pnpm@${pinnedPnpm}`,
  ]);
  if (code !== 0 || versionOf("pnpm", env) !== pinnedPnpm) {
    throw new Error(`could not install pnpm@${pinnedPnpm} (npm exited ${code})`);
  }
  return env;
}

/** Installs workspace dependencies from the lockfile (a no-op when up to date). */
export function ensureDependencies() {
  ensurePnpm();
  const args = ["install", "--frozen-lockfile", "--prefer-offline"];
  if (!existsSync(path.join(repoRoot, "pnpm-lock.yaml"))) args.splice(1, 1);
  const code = run("pnpm", args);
  if (code !== 0) throw new Error(`pnpm install failed with exit code ${code}`);
}
