/**
 * Starts `src/remote/server/main.ts` as a separate process (through tsx) for
 * integration tests, and waits for its `listening on` line.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const mainPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../src/remote/server/main.ts");
const tsxLoader = createRequire(import.meta.url).resolve("tsx");

/** A running server process. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** Kills the process (SIGKILL unless told otherwise) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/**
 * Spawns the server and waits for it to listen.
 *
 * @param args - Command-line flags.
 * @param env - Extra environment (merged over `process.env` minus `SANDBOX_*`).
 * @param timeoutMs - How long to wait for the `listening on` line.
 * @returns The running process.
 */
export async function startServerProcess(
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<ServerProcess> {
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("SANDBOX_")));
  const child = spawn(process.execPath, ["--import", tsxLoader, mainPath, ...args], {
    env: { ...baseEnv, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start within ${timeoutMs} ms:\n${stderr}`)),
      timeoutMs,
    );
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /^listening on (\S+)$/m.exec(stdout);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    exited,
    stop: async (signal = "SIGKILL") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
