/**
 * Reading and writing cgroup control files, and emptying and removing a
 * cgroup directory. Shared by the v1 and v2 controllers.
 */
import { createHash, randomBytes } from "node:crypto";
import { access, mkdir, readdir, readFile, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { SandboxError } from "../errors.js";

/** How long {@link killCgroupProcesses} keeps killing before giving up. */
const KILL_DEADLINE_MS = 5_000;

let sequence = 0;

/**
 * A unique cgroup directory name for a sandbox: the server's pid (so stale
 * ones of a dead server can be recognised), a counter and a hash of the id.
 *
 * @param sandboxId - Any string.
 * @returns e.g. `4711-3-9f86d081884c`.
 */
export function sandboxCgroupName(sandboxId: string): string {
  const hash = createHash("sha256").update(sandboxId, "utf8").digest("hex").slice(0, 12);
  sequence += 1;
  return `${process.pid}-${sequence}-${hash}`;
}

/**
 * Writes a control file.
 *
 * @param dir - The cgroup directory.
 * @param file - e.g. `memory.max`.
 * @param value - What to write.
 * @throws SandboxError `UNAVAILABLE` naming the file and the errno.
 */
export async function writeControl(dir: string, file: string, value: string | number): Promise<void> {
  try {
    await writeFile(path.join(dir, file), String(value));
  } catch (err) {
    throw new SandboxError(
      "UNAVAILABLE",
      `cgroup: cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? "error"})`,
      { cause: err },
    );
  }
}

/**
 * Reads a control file.
 *
 * @returns Its content, or `undefined` when it does not exist or cannot be read.
 */
export async function readControl(dir: string, file: string): Promise<string | undefined> {
  try {
    return await readFile(path.join(dir, file), "utf8");
  } catch {
    return undefined;
  }
}

/** True when the control file exists (the kernel or controller provides it). */
export async function hasControl(dir: string, file: string): Promise<boolean> {
  try {
    await access(path.join(dir, file));
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads one counter of a flat-keyed file (`memory.events`, `memory.oom_control`).
 *
 * @param text - The file's content, or `undefined`.
 * @param key - e.g. `oom_kill`.
 * @returns The value, or `undefined` when absent.
 */
export function keyedCounter(text: string | undefined, key: string): number | undefined {
  if (text === undefined) return undefined;
  for (const line of text.split("\n")) {
    const [name, value] = line.trim().split(/\s+/);
    if (name === key && value !== undefined && /^\d+$/.test(value)) return Number(value);
  }
  return undefined;
}

/**
 * Reads a single-number control file (`memory.current`, `memory.failcnt`).
 *
 * @returns The number, or `undefined` when absent or `max`.
 */
export async function readNumber(dir: string, file: string): Promise<number | undefined> {
  const text = (await readControl(dir, file))?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** Pids listed in the cgroup's `cgroup.procs`. */
export async function cgroupPids(dir: string): Promise<number[]> {
  const text = await readControl(dir, "cgroup.procs");
  if (text === undefined) return [];
  return text
    .split("\n")
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}

/**
 * SIGKILLs every process of a cgroup until it is empty. New processes may be
 * forked while the list is read, hence the loop; the pids bound keeps it short.
 *
 * @param dir - The cgroup directory (for v1, any hierarchy holds every process).
 * @param killFile - Write `1` to `cgroup.kill` first (cgroup v2, Linux 5.14+).
 * @returns Whether the cgroup was seen empty before the deadline.
 */
export async function killCgroupProcesses(dir: string, killFile: boolean): Promise<boolean> {
  if (killFile) await writeFile(path.join(dir, "cgroup.kill"), "1").catch(() => undefined);
  const deadline = Date.now() + KILL_DEADLINE_MS;
  for (let round = 0; ; round += 1) {
    // A killed process stays a zombie until its parent reaps it; it runs nothing.
    const pids = (
      await Promise.all((await cgroupPids(dir)).map(async (pid) => ((await isZombie(pid)) ? undefined : pid)))
    ).filter((pid) => pid !== undefined);
    if (pids.length === 0) return true;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // ESRCH: it exited meanwhile.
      }
    }
    if (Date.now() > deadline) return false;
    await sleep(Math.min(100, 5 * 2 ** Math.min(round, 5)));
  }
}

async function isZombie(pid: number): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return status === "" || /^State:\s+[ZX]/m.test(status);
}

/**
 * Removes a cgroup directory, retrying while dying processes leave it.
 *
 * @returns Whether it is gone.
 */
export async function removeCgroupDir(dir: string): Promise<boolean> {
  const deadline = Date.now() + KILL_DEADLINE_MS;
  for (let round = 0; ; round += 1) {
    try {
      await rmdir(dir);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return true;
      if (code !== "EBUSY" || Date.now() > deadline) return false;
    }
    await sleep(Math.min(100, 5 * 2 ** Math.min(round, 5)));
  }
}

/**
 * Creates a directory in a cgroup hierarchy (an existing one is fine).
 *
 * @throws SandboxError `UNAVAILABLE` naming the errno.
 */
export async function makeCgroupDir(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    throw new SandboxError("UNAVAILABLE", `cgroup: cannot create a cgroup (${code ?? "error"})`, { cause: err });
  }
}

/**
 * Creates and removes one child cgroup in `parent`. The parent can exist yet
 * refuse this process (made by another user, e.g. root in an earlier run, or
 * not delegated), and detection must then fall back instead of every command
 * failing at its cgroup's creation.
 *
 * @returns Why a child cannot be created, or `undefined` when it can.
 */
export async function cannotCreateChild(parent: string): Promise<string | undefined> {
  const probe = path.join(parent, `probe-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await mkdir(probe);
  } catch (err) {
    return `cannot create cgroups in ${parent} (${(err as NodeJS.ErrnoException).code ?? "error"})`;
  }
  await rmdir(probe).catch(() => undefined);
  return undefined;
}

/** True while a process with this pid exists. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the sandbox cgroups a dead server process left under `parent`
 * (named `<pid>-...` by {@link sandboxCgroupName}); their processes are killed first.
 *
 * @param parent - The folder holding sandbox cgroups.
 * @param killFile - As {@link killCgroupProcesses}.
 * @returns How many were removed.
 */
export async function removeStaleCgroups(parent: string, killFile: boolean): Promise<number> {
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const entry of entries) {
    const pid = /^(\d+)-\d+-[0-9a-f]+$/.exec(entry.name)?.[1];
    if (!entry.isDirectory() || pid === undefined || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    const dir = path.join(parent, entry.name);
    await killCgroupProcesses(dir, killFile);
    if (await removeCgroupDir(dir)) removed += 1;
  }
  return removed;
}
