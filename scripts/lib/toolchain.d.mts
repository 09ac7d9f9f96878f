/** The repository root. */
export const repoRoot: string;
/** The pnpm version pinned by `packageManager`, e.g. "10.34.9". */
export const pinnedPnpm: string;
/** Environment for child processes: local pnpm first on PATH, turbo quiet. */
export function toolEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
/** Runs a command inheriting stdio; returns its exit code. */
export function run(cmd: string, args: readonly string[], opts?: { env?: Record<string, string> }): number;
/** Makes the pinned pnpm available (on PATH or in .tools/) and returns its env. */
export function ensurePnpm(): NodeJS.ProcessEnv;
/** Installs workspace dependencies from the lockfile (a no-op when up to date). */
export function ensureDependencies(): void;
