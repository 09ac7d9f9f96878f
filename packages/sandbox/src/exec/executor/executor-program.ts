/**
 * What a sandbox runs when it hosts an executor instead of one command: the
 * host's own `node` binary (an execute-only copy), read-only, on the executor
 * script.
 *
 * The program is `/bin/sh -c '<init>' deerflow-executor node ... script`:
 * `sh` is the sandbox's PID 1 (bubblewrap's `--as-pid-1`) and reaps every
 * orphan (Node reaps only its own children, and zombies of the sandbox uid
 * would eat its process budget); it starts `node` in the background with the
 * control channel as stdin/stdout (kept on fd 9 across the fork, because a
 * background job's stdin is reset to `/dev/null`), drops its own copies of
 * that channel, and exits with the executor. PID 1 ignores signals it has no handler for, so a
 * command cannot kill it; a command can kill `node` (same uid), which ends the
 * sandbox, and the next command starts a new one.
 */
import { realpathSync } from "node:fs";
import type { BindSpec } from "../bubblewrap-args.js";
import type { ResourceLimits } from "../command-runner.js";
import { silentLogger, type Logger } from "../../logger.js";
import { executeOnlyNode } from "./execute-only-node.js";
import { EXECUTOR_DIR, EXECUTOR_SCRIPT_PATH } from "./launch.js";
import { executorCodec } from "./protocol.js";

/** Init script of the sandbox (see the module comment). */
const EXECUTOR_INIT_SCRIPT = 'exec 9<&0; "$@" <&9 9<&- & exec 9<&- </dev/null >/dev/null; wait $!';

/**
 * Node flags of the executor: one V8 worker thread (threads count against the
 * sandbox uid's RLIMIT_NPROC) and a small heap (it only relays bytes).
 */
const EXECUTOR_NODE_FLAGS: readonly string[] = ["--v8-pool-size=1", "--max-old-space-size=64"];

/**
 * Environment of the executor itself (each command gets its own complete
 * environment), with the marker the executor checks before it runs.
 *
 * @returns a fresh record.
 */
export function executorEnvironment(): Record<string, string> {
  return { PATH: "/usr/bin:/bin", LC_ALL: "C", [executorCodec().SANDBOX_MARKER]: "1" };
}

/** Below these limits Node cannot run reliably, and commands get one bubblewrap each instead. */
export const MIN_EXECUTOR_LIMITS = { memoryBytes: 64 * 1024 * 1024, openFiles: 64, processes: 16 } as const;

/** The executor's program and what it needs bound. */
export interface ExecutorProgram {
  readonly argv: readonly string[];
  /** The node binary (its execute-only copy), unless it runs from `/usr` as it is. */
  readonly binds: readonly BindSpec[];
}

let latest: ExecutorProgram | undefined;

/**
 * The executor program: the execute-only copy of `node` (see
 * `execute-only-node.ts`) bound at `/.deerflow-executor/node`; if no copy can
 * be made, the readable binary itself, with a warning (commands could then
 * inspect the executor).
 *
 * @param logger - for the warning.
 * @returns argv and extra binds.
 */
export async function executorProgram(logger: Logger = silentLogger): Promise<ExecutorProgram> {
  let node: string;
  let path: string;
  try {
    node = await executeOnlyNode();
    path = `${EXECUTOR_DIR}/node`;
  } catch (err) {
    logger.warn(
      { err: (err as Error).message },
      "cannot make an execute-only copy of node for the sandbox executor; commands can inspect the executor",
    );
    node = realpathSync(process.execPath);
    // /usr is bound read-only in every sandbox: a node under it is already there.
    path = node.startsWith("/usr/") ? node : `${EXECUTOR_DIR}/node`;
  }
  latest = {
    argv: [
      "/bin/sh",
      "-c",
      EXECUTOR_INIT_SCRIPT,
      "deerflow-executor",
      path,
      ...EXECUTOR_NODE_FLAGS,
      EXECUTOR_SCRIPT_PATH,
    ],
    binds: path === node ? [] : [{ virtualPath: path, hostPath: node, readOnly: true }],
  };
  return latest;
}

/**
 * The binds of the program the latest executor was started with (for masking
 * their host paths in output), or none before the first start.
 *
 * @returns the binds.
 */
export function latestExecutorBinds(): readonly BindSpec[] {
  return latest?.binds ?? [];
}

/**
 * Tells whether an executor can live under these limits.
 *
 * @param limits - the sandbox's limits.
 * @returns false when one is below {@link MIN_EXECUTOR_LIMITS}.
 */
export function executorFits(limits: ResourceLimits): boolean {
  return (Object.keys(MIN_EXECUTOR_LIMITS) as (keyof typeof MIN_EXECUTOR_LIMITS)[]).every((key) => {
    const value = limits[key];
    return value === undefined || value >= MIN_EXECUTOR_LIMITS[key];
  });
}
