/**
 * Starting an executor process: the only place a long-lived sandbox process
 * is spawned. The bubblewrap command line comes from the runner; this module
 * wires its descriptors and puts it in the sandbox's cgroup before anything in
 * it runs.
 *
 * Descriptors of the spawned process (all UNIX sockets: Node makes socket
 * pairs for `pipe`, and a socket, unlike a pipe, cannot be reopened through
 * `/proc/<pid>/fd` by a command of the same uid):
 * - 0: requests to the executor (and, behind a start gate, first the gate's line);
 * - 1: frames from the executor;
 * - 2: diagnostics (bubblewrap's errors, the executor's own);
 * - 3: bubblewrap's `--info-fd` (the namespace init's pid, for killing);
 * - 4: the executor script, read once by `--ro-bind-data`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { attachTo } from "../../cgroups/attach.js";
import type { CommandCgroup } from "../../cgroups/cgroup-types.js";
import { GATE_OPEN_LINE, gatedCommand } from "../../cgroups/start-gate.js";
import { killProcessGroup } from "../process-tree.js";
import { SandboxInit } from "../sandbox-init.js";
import { ExecutorStartError } from "./executor-errors.js";
import { executorCodec } from "./protocol.js";

/** Descriptor of bubblewrap's `--info-fd` in the spawned process. */
export const EXECUTOR_INFO_FD = 3;

/** Descriptor the executor script is read from (`--ro-bind-data`). */
export const EXECUTOR_SCRIPT_FD = 4;

/** Where the executor's files appear inside the sandbox (a read-only folder on the sandbox's read-only root). */
export const EXECUTOR_DIR = "/.deerflow-executor";

/** The script's path inside the sandbox. */
export const EXECUTOR_SCRIPT_PATH = `${EXECUTOR_DIR}/sandbox-executor.cjs`;

let script: Buffer | undefined;

/**
 * The executor script shipped with the package (read once). It sits next to
 * this module in the sources and next to the bundle in `dist/`.
 *
 * @returns its bytes.
 * @throws Error when the file is missing (a broken install).
 */
function executorScript(): Buffer {
  script ??= readFileSync(fileURLToPath(new URL("./sandbox-executor.cjs", import.meta.url)));
  return script;
}

/** What {@link launchExecutorProcess} needs. */
export interface ExecutorLaunchOptions {
  /** The bubblewrap command line (prlimit, stages...), built with {@link EXECUTOR_INFO_FD} and {@link EXECUTOR_SCRIPT_FD}. */
  readonly file: string;
  readonly args: readonly string[];
  /** Environment of the wrapper processes (the sandbox itself gets `--clearenv`). */
  readonly env: Readonly<Record<string, string>>;
  /** The sandbox's cgroup: the process is attached before it runs anything. */
  readonly cgroup?: CommandCgroup;
}

/** A spawned executor process and its channels. */
export interface LaunchedExecutor {
  readonly child: ChildProcess;
  /** Host pid of the spawned process (the leader of the wrapper chain). */
  readonly pid: number;
  readonly requests: Writable;
  readonly frames: Readable;
  readonly diagnostics: Readable;
  /** Knows bubblewrap's namespace init, whose death ends everything in the sandbox. */
  readonly init: SandboxInit;
}

/**
 * Spawns an executor: behind a start gate when there is a cgroup to join, so
 * that the wrappers, the executor and every command it will start are in it.
 *
 * @param options - see {@link ExecutorLaunchOptions}.
 * @returns the process and its channels, once it may run (the gate is open).
 * @throws ExecutorStartError when it cannot be spawned; SandboxError `UNAVAILABLE` when it cannot be placed in its cgroup.
 */
export async function launchExecutorProcess(options: ExecutorLaunchOptions): Promise<LaunchedExecutor> {
  let source: Buffer;
  try {
    source = executorScript();
    executorCodec();
  } catch (err) {
    throw new ExecutorStartError(
      `The sandbox executor script cannot be loaded: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      { cause: err },
    );
  }
  const command =
    options.cgroup === undefined
      ? { file: options.file, args: [...options.args] }
      : gatedCommand(options.file, options.args, { keepStdin: true });
  const child = spawn(command.file, command.args, {
    cwd: "/",
    env: { ...options.env },
    detached: true,
    stdio: ["pipe", "pipe", "pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  const [requests, frames, diagnostics, info, data] = child.stdio as [Writable, Readable, Readable, Readable, Writable];
  for (const stream of [requests, frames, diagnostics, info, data]) stream.on("error", () => {});
  const pid = child.pid;
  if (pid === undefined) {
    const err = await new Promise<Error>((resolve) => child.once("error", resolve));
    throw new ExecutorStartError(
      `Cannot spawn the sandbox executor: ${(err as NodeJS.ErrnoException).code ?? err.message}`,
      { cause: err },
    );
  }
  child.on("error", () => {});
  const init = new SandboxInit();
  init.watch(info);
  if (options.cgroup !== undefined) {
    try {
      await attachTo(options.cgroup)(pid);
    } catch (err) {
      killProcessGroup(pid);
      throw err;
    }
    requests.write(GATE_OPEN_LINE);
  }
  data.end(source);
  return { child, pid, requests, frames, diagnostics, init };
}
