/** Child processes for the pack check: output captured, a hard timeout, a clean environment. */
import { spawn } from "node:child_process";
import { toolEnv } from "../../../scripts/lib/toolchain.mjs";

/** What a finished command left behind. */
export interface CommandResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  readonly cwd: string;
  /** Added to {@link consumerEnv}'s variables. */
  readonly env?: Record<string, string>;
  /** SIGKILL after this long (default 240 s). */
  readonly timeoutMs?: number;
}

/**
 * The environment a third party's shell would give a command: the workspace's
 * pinned pnpm on PATH, but none of the `npm_config_*` / `npm_package_*` /
 * `pnpm_*` variables that the surrounding `pnpm run test` exports, which npm
 * and pnpm would otherwise read as settings of the consumer project, nor
 * vitest's own variables; no colours, so output can be matched.
 */
export function consumerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(toolEnv())) {
    if (!/^(npm_|pnpm_|INIT_CWD$|NODE_OPTIONS$|VITEST|TURBO_HASH$|FORCE_COLOR$)/i.test(key)) env[key] = value;
  }
  return { ...env, NO_COLOR: "1", NO_UPDATE_NOTIFIER: "1", npm_config_update_notifier: "false", ...extra };
}

/**
 * Runs `cmd args` to completion.
 *
 * @returns Exit code or signal and the whole output; never rejects on a non-zero exit.
 * @throws when the command cannot be started at all.
 */
export function runCommand(cmd: string, args: readonly string[], options: RunCommandOptions): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: consumerEnv(options.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 240_000);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** `result`'s output, labelled, for assertion messages. */
export function describeResult(label: string, result: CommandResult): string {
  return `${label} exited ${result.code ?? result.signal}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}
