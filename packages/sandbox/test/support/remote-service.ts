/**
 * Starts the remote sandbox service as a separate process on loopback, the way
 * an operator runs it (`node --import tsx src/remote/server/main.ts --port 0 ...`),
 * and waits for its `listening on` line. Shared by the remote conformance test
 * and the benchmark.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** A running service. */
export interface RemoteService {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Spawns the service and resolves once it prints `listening on <url>`.
 *
 * @param args - Extra CLI arguments (`--base-dir`, `--skills-dir`, `--token`...).
 * @param timeoutMs - How long to wait for the line.
 * @returns The running service.
 * @throws Error when the process exits or stays silent too long (its output is in the message).
 */
export async function startRemoteService(args: readonly string[], timeoutMs = 30_000): Promise<RemoteService> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/remote/server/main.ts", "--port", "0", "--host", "127.0.0.1", ...args],
    {
      cwd: packageDir,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_OPTIONS: "" },
    },
  );
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(`the sandbox service printed no "listening on" line within ${timeoutMs} ms`),
      timeoutMs,
    );
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${why}; its output:\n${output}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /listening on (https?:\/\/[^\s"']+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1].replace(/\/+$/, ""));
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", (err) => fail(`the sandbox service failed to start: ${err.message}`));
    child.once("exit", (code, signal) =>
      fail(`the sandbox service exited early (code ${String(code)}, signal ${String(signal)})`),
    );
  });
  child.removeAllListeners("exit");
  return { url, output: () => output, stop: () => stopProcess(child) };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}
