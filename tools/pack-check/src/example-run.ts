/** Runs a consumer project's compiled README example: to completion, or, for a server, until it answers. */
import { spawn } from "node:child_process";
import { consumerEnv, describeResult, runCommand, type CommandResult } from "./run-command.js";
import { CONSUMER_FILES } from "./consumer-sources.js";

/** What a server example answered on one path. */
export interface ServedAnswer {
  readonly url: string;
  readonly status: number;
  readonly body: string;
}

/** Runs `out/example.js` in `dir` to completion. */
export function runExample(dir: string): Promise<CommandResult> {
  return runCommand(process.execPath, [CONSUMER_FILES.compiledExample], { cwd: dir, timeoutMs: 120_000 });
}

/**
 * Starts `out/example.js` in `dir` as a server on a free port (`PORT=0`), waits
 * for Fastify's "Server listening at <url>" log line, GETs `path` and stops
 * it with SIGTERM.
 *
 * @throws with the example's output when it exits, or has not listened within a minute.
 */
export async function serveExample(dir: string, path: string): Promise<ServedAnswer> {
  const child = spawn(process.execPath, [CONSUMER_FILES.compiledExample], {
    cwd: dir,
    env: consumerEnv({ PORT: "0" }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<CommandResult>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "Server listening at" within 60 s\n${stdout}\n${stderr}`)),
        60_000,
      );
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        const found = /Server listening at (http:\/\/[^\s"]+)/.exec(stdout)?.[1];
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
        }
      });
      void exited.then((result) => {
        clearTimeout(timer);
        reject(new Error(describeResult("the example (before listening)", result)));
      });
    });
    const response = await fetch(new URL(path, url));
    return { url, status: response.status, body: await response.text() };
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}
