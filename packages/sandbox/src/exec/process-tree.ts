/**
 * Runs one process as the leader of a new process group and kills the whole
 * group on timeout or abort.
 *
 * Output is drained continuously into bounded captures. The call settles when
 * the leader exits, not when its pipes close: a background child
 * (`server &`) inherits stdout/stderr and may hold them open for hours, so
 * after the exit the pipes are read for a short grace period only, then
 * detached (still drained, never again held in memory) so the caller gets its
 * result at once — DeerFlow's drain threads with a 0.2 s join.
 */
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { gatedCommand, openGate } from "../cgroups/start-gate.js";
import { SandboxError } from "../errors.js";
import { OutputCapture } from "./output-capture.js";

/** How long output is still collected after the leader exits (DeerFlow: 0.2 s). */
export const DEFAULT_DRAIN_GRACE_MS = 200;

/** How long a custom `terminate` gets before the whole group is killed anyway. */
export const TERMINATE_GRACE_MS = 2_000;

/** setTimeout's largest delay; longer timeouts are clamped to it (≈24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/** What to run. */
export interface ProcessTreeOptions {
  /** Executable (absolute path or a name looked up on the child's `PATH`). */
  readonly file: string;
  readonly args: readonly string[];
  /** Host working directory; the parent's when omitted. */
  readonly cwd?: string;
  /** The complete environment of the child (nothing is inherited). */
  readonly env: Readonly<Record<string, string>>;
  /** Kill the group after this many milliseconds. */
  readonly timeoutMs: number;
  /** Aborting kills the group; the promise then rejects with `ABORTED`. */
  readonly signal?: AbortSignal;
  /** Bytes kept per stream. */
  readonly maxOutputBytes: number;
  /** See {@link DEFAULT_DRAIN_GRACE_MS}. */
  readonly drainGraceMs?: number;
  /**
   * Makes fd 3 of the child a pipe and hands its read end over (bubblewrap
   * writes its `--info-fd` JSON there).
   */
  readonly onInfoPipe?: (stream: Readable) => void;
  /**
   * Stops the tree on timeout or abort instead of the group SIGKILL, e.g. by
   * killing bubblewrap's namespace init so that every wrapper process exits
   * normally and is reaped by its parent (a group kill orphans them, and
   * orphans stay zombies where PID 1 does not reap). Receives the leader's
   * pid; returns false when it could not act. The group is killed anyway if
   * the leader is still running {@link TERMINATE_GRACE_MS} later.
   */
  readonly terminate?: (pid: number) => boolean;
  /**
   * Runs once the child exists but before it starts `file`: the child waits
   * behind a start gate (see `start-gate.ts`) until this resolves, so that
   * e.g. a cgroup attach covers every process it will fork. A rejection kills
   * the child and rejects the run with that error.
   */
  readonly beforeStart?: (pid: number) => Promise<void>;
}

/** How the process ended and what it printed. */
export interface ProcessTreeResult {
  readonly stdout: OutputCapture;
  readonly stderr: OutputCapture;
  /** Exit status; `null` when a signal ended the leader. */
  readonly exitCode: number | null;
  /** Signal that ended the leader (`SIGKILL` after a timeout). */
  readonly signal: NodeJS.Signals | null;
  /** True when the timeout fired and the group was killed. */
  readonly timedOut: boolean;
}

/**
 * Sends SIGKILL to every process of a group. Processes that left the group
 * (`setsid`) are out of reach; bubblewrap's PID namespace covers those.
 *
 * @param pid - the group leader's pid (= the group id).
 * @returns true when the signal was delivered to the group.
 */
export function killProcessGroup(pid: number): boolean {
  try {
    process.kill(-pid, "SIGKILL");
    return true;
  } catch {
    // ESRCH: the group is already empty. EPERM cannot happen for our own children.
    return false;
  }
}

/** Rejection for an aborted command. */
function abortedError(): SandboxError {
  return new SandboxError("ABORTED", "Command aborted");
}

/**
 * Spawns `file` in a new session (so it leads a new process group) with stdin
 * on `/dev/null`, and waits for it.
 *
 * @param options - see {@link ProcessTreeOptions}.
 * @returns exit status, signal, whether the timeout fired, and both captures.
 * @throws SandboxError `ABORTED` when `signal` fires (after the group is killed);
 *   the spawn error itself (e.g. `ENOENT`) when the process cannot start.
 * @example
 * ```ts
 * const r = await runProcessTree({ file: "/bin/sh", args: ["-c", "echo hi"], env: { PATH: "/usr/bin:/bin" },
 *   timeoutMs: 5_000, maxOutputBytes: 1 << 20 });
 * r.stdout.text(); // "hi\n"
 * ```
 */
export function runProcessTree(options: ProcessTreeOptions): Promise<ProcessTreeResult> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortedError());
  const graceMs = options.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS;

  return new Promise<ProcessTreeResult>((resolve, reject) => {
    const stdout = new OutputCapture(options.maxOutputBytes);
    const stderr = new OutputCapture(options.maxOutputBytes);
    const gate = options.beforeStart;
    const command =
      gate === undefined ? { file: options.file, args: [...options.args] } : gatedCommand(options.file, options.args);
    const stdin = gate === undefined ? "ignore" : "pipe";
    const child = spawn(command.file, command.args, {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: { ...options.env },
      detached: true,
      stdio: options.onInfoPipe === undefined ? [stdin, "pipe", "pipe"] : [stdin, "pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    const infoPipe =
      options.onInfoPipe === undefined ? undefined : ((child.stdio[3] as Readable | null | undefined) ?? undefined);
    if (infoPipe !== undefined) {
      infoPipe.on("error", () => {});
      options.onInfoPipe?.(infoPipe);
    }

    let timedOut = false;
    let aborted = false;
    let startError: unknown;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let openStreams = 2;
    let graceTimer: NodeJS.Timeout | undefined;
    let terminateTimer: NodeJS.Timeout | undefined;

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      // The group outlives its leader while background members remain.
      if (!killProcessGroup(child.pid) && exited === undefined) child.kill("SIGKILL");
    };
    const killTree = (): void => {
      const pid = child.pid;
      if (pid === undefined || terminateTimer !== undefined) return;
      if (exited === undefined && options.terminate?.(pid) === true) {
        terminateTimer = setTimeout(killGroup, TERMINATE_GRACE_MS);
        terminateTimer.unref();
        return;
      }
      killGroup();
    };
    const onAbort = (): void => {
      aborted = true;
      killTree();
    };
    const timer = setTimeout(
      () => {
        if (exited !== undefined) return; // finished; only the drain grace is running
        timedOut = true;
        killTree();
      },
      Math.max(0, Math.min(options.timeoutMs, MAX_TIMER_MS)),
    );
    signal?.addEventListener("abort", onAbort, { once: true });

    const streams = [child.stdout, child.stderr].filter((s): s is Readable => s !== null);
    const allPipes = infoPipe === undefined ? streams : [...streams, infoPipe];
    const release = (): void => {
      clearTimeout(timer);
      if (graceTimer !== undefined) clearTimeout(graceTimer);
      if (terminateTimer !== undefined) clearTimeout(terminateTimer);
      signal?.removeEventListener("abort", onAbort);
      // Background children may still write: keep draining (so they never
      // block or die of SIGPIPE) but stop collecting, and let Node exit.
      for (const stream of allPipes) {
        stream.removeAllListeners("data");
        stream.on("data", () => {});
        stream.on("error", () => {});
        (stream as Readable & { unref?: () => void }).unref?.();
      }
      child.unref();
    };
    const finish = (): void => {
      if (settled || exited === undefined) return;
      settled = true;
      release();
      if (startError !== undefined) {
        reject(startError);
        return;
      }
      if (aborted) {
        reject(abortedError());
        return;
      }
      // A timed-out command was killed, whichever process reported the status.
      if (timedOut) resolve({ stdout, stderr, exitCode: null, signal: "SIGKILL", timedOut });
      else resolve({ stdout, stderr, exitCode: exited.code, signal: exited.signal, timedOut });
    };

    child.stdout?.on("data", (chunk: Buffer) => stdout.write(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.write(chunk));
    for (const stream of streams) {
      stream.once("close", () => {
        openStreams -= 1;
        if (openStreams === 0) finish();
      });
      stream.on("error", () => {});
    }

    child.once("error", (err) => {
      // Spawn failure (no such file, bad cwd): nothing ran, nothing to kill.
      if (exited !== undefined || settled) return;
      settled = true;
      release();
      reject(aborted ? abortedError() : err);
    });
    if (gate !== undefined && child.pid !== undefined) {
      child.stdin?.on("error", () => {});
      gate(child.pid).then(
        () => openGate(child.stdin),
        (err: unknown) => {
          startError = err;
          killGroup();
        },
      );
    }
    child.once("exit", (code, sig) => {
      exited = { code, signal: sig };
      if (openStreams === 0) finish();
      else graceTimer = setTimeout(finish, graceMs);
    });
  });
}
