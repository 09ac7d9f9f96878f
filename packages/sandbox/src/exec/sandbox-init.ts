/**
 * Finding bubblewrap's namespace init, the process to kill on timeout.
 *
 * Killing the wrapper processes' group (prlimit/bwrap/setpriv/bwrap) orphans
 * the inner bubblewrap: it becomes a zombie of the sandbox uid that only PID 1
 * can reap, and many container inits (or a Node server running as PID 1)
 * never do — each such zombie then eats into that uid's RLIMIT_NPROC budget.
 * Killing the namespace init instead ends every sandboxed process at once
 * (the kernel tears the PID namespace down) while each wrapper exits normally
 * and is reaped by its parent.
 *
 * bubblewrap reports the init's pid on `--info-fd`. The pid is only acted on
 * after checking, through `/proc`, that it descends from the process we
 * spawned, so a wrong or forged value can never make us kill anything else.
 */
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";

/** How many generations below the spawned process the init may be (prlimit→bwrap→setpriv/bwrap→init). */
const MAX_DEPTH = 4;

/**
 * Extracts `child-pid` from bubblewrap's `--info-fd` JSON.
 *
 * @param text - what bubblewrap wrote so far.
 * @returns the pid, or `undefined` until a complete value arrived.
 */
export function parseChildPid(text: string): number | undefined {
  const match = /"child-pid"\s*:\s*(\d+)\s*[,}\n]/.exec(text);
  const pid = match === null ? Number.NaN : Number(match[1]);
  return Number.isSafeInteger(pid) && pid > 1 ? pid : undefined;
}

/** Parent pid of `pid` from `/proc/<pid>/stat`, or `undefined` when gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces and parentheses: parse after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ppid = Number(fields[1]);
    return Number.isSafeInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Tells whether `pid` is a (grand…)child of `ancestor`, at most {@link MAX_DEPTH} levels down.
 *
 * @param pid - candidate descendant.
 * @param ancestor - the process we spawned.
 */
export function isDescendant(pid: number, ancestor: number): boolean {
  let current: number | undefined = pid;
  for (let depth = 0; depth < MAX_DEPTH && current !== undefined && current > 1; depth += 1) {
    current = parentOf(current);
    if (current === ancestor) return true;
  }
  return false;
}

/** Tracks the init pid bubblewrap announces. */
export class SandboxInit {
  #text = "";
  #pid: number | undefined;

  /**
   * Reads bubblewrap's info pipe (at most 64 KiB are looked at).
   *
   * @param stream - read end of the `--info-fd` pipe.
   */
  watch(stream: Readable): void {
    stream.on("data", (chunk: Buffer) => {
      if (this.#pid !== undefined || this.#text.length > 65_536) return;
      this.#text += chunk.toString("utf8");
      this.#pid = parseChildPid(this.#text);
    });
  }

  /** The announced pid, if any. */
  get pid(): number | undefined {
    return this.#pid;
  }

  /**
   * Kills the init with SIGKILL when it is known and descends from `leader`.
   *
   * @param leader - pid of the process we spawned.
   * @returns true when the signal was sent.
   */
  kill(leader: number): boolean {
    const pid = this.#pid;
    if (pid === undefined || !isDescendant(pid, leader)) return false;
    try {
      process.kill(pid, "SIGKILL");
      return true;
    } catch {
      return false;
    }
  }
}
