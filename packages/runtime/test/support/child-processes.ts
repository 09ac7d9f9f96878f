/**
 * Several processes racing on one shared resource (a SQLite file): each child
 * script prints `ready`, waits for a line on stdin so that all start at once,
 * runs its workload and prints one JSON report. Shared by the process tests of
 * the SQLite run and account stores.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** A child process and the lines it printed so far, read as they come. */
interface Child {
  process: ChildProcess;
  lines: AsyncIterator<string>;
  stderr: string[];
}

function startChild(script: string, args: readonly string[]): Child {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: PACKAGE_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  return { process: child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator](), stderr };
}

async function nextLine(child: Child): Promise<string> {
  const { value, done } = await child.lines.next();
  if (done) throw new Error(`child exited early: ${child.stderr.join("")}`);
  return value;
}

/** What one race returns. */
interface RaceResult<Report> {
  /** Each child's JSON report, in the order of the argument lists. */
  readonly reports: Report[];
  readonly exitCodes: number[];
  /** Every child's stderr, for failure messages. */
  readonly stderr: string;
}

/** What {@link useChildProcessRace} gives a test file. */
export interface ChildProcessRace {
  /** A path named `name` in a fresh temporary directory, removed after the test. */
  tempFile(name: string): Promise<string>;
  /** Starts one child of `script` per argument list, releases them together, and collects their reports. */
  run<Report>(script: string, argLists: readonly (readonly string[])[]): Promise<RaceResult<Report>>;
}

/**
 * Registers an `afterEach` that kills children still running (a failed test)
 * and removes the temporary directory; call it inside a `describe`.
 */
export function useChildProcessRace(dirPrefix: string): ChildProcessRace {
  const children: Child[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.process.exitCode === null) child.process.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return {
    async tempFile(name) {
      dir ??= await mkdtemp(join(tmpdir(), dirPrefix));
      return join(dir, name);
    },
    async run<Report>(script: string, argLists: readonly (readonly string[])[]) {
      const started = argLists.map((args) => startChild(script, args));
      children.push(...started);
      for (const child of started) {
        const line = await nextLine(child);
        if (line !== "ready") throw new Error(`expected "ready" from a child, got ${JSON.stringify(line)}`);
      }
      for (const child of started) child.process.stdin!.write("go\n");
      const reports = await Promise.all(started.map(async (child) => JSON.parse(await nextLine(child)) as Report));
      const exitCodes = await Promise.all(
        started.map(async (c) =>
          c.process.exitCode !== null ? c.process.exitCode : once(c.process, "exit").then(([code]) => code as number),
        ),
      );
      return { reports, exitCodes, stderr: started.map((c) => c.stderr.join("")).join("\n") };
    },
  };
}
