/**
 * Helpers for this folder's integration tests (not exported from the package):
 * process inspection through /proc and a thread-like directory layout.
 */
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Mount } from "../../../src/mount.js";
import type { CommandRunner, CommandSpec } from "../../../src/exec/command-runner.js";
import { commandEnvironment } from "../../../src/exec/environment.js";

/** One live (non-zombie) process. */
export interface ProcessInfo {
  readonly pid: number;
  readonly uid: number;
  readonly cmdline: string;
}

/**
 * Lists live processes from /proc, zombies excluded (a killed child may stay a
 * zombie until its new parent reaps it; it runs no code).
 */
export function liveProcesses(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, "utf8");
      if (/^State:\s+[ZX]/m.test(status)) continue;
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      out.push({ pid: Number(name), uid, cmdline });
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/**
 * Processes (zombies included) whose real uid is `uid`: what RLIMIT_NPROC counts.
 *
 * @returns `"<pid> <state> <name>"` entries.
 */
export function processesOfUid(uid: number): string[] {
  const out: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, "utf8");
      if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) !== uid) continue;
      out.push(`${name} ${/^State:\s+(\S+)/m.exec(status)?.[1] ?? "?"} ${/^Name:\s+(.*)$/m.exec(status)?.[1] ?? "?"}`);
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/**
 * True when `ancestor` is `pid`'s parent, grandparent... (read from /proc).
 *
 * @param pid - the candidate descendant.
 * @param ancestor - e.g. `process.pid`.
 */
export function descendsFrom(pid: number, ancestor: number): boolean {
  let current = pid;
  for (let depth = 0; depth < 32 && current > 1; depth += 1) {
    try {
      const stat = readFileSync(`/proc/${current}/stat`, "utf8");
      current = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      return false;
    }
    if (current === ancestor) return true;
  }
  return false;
}

/** True while `pid` exists and is not a zombie. */
export function isRunning(pid: number): boolean {
  return liveProcesses().some((p) => p.pid === pid);
}

/**
 * Polls until `check` holds or `limitMs` passes (a bound, not a speed assertion).
 *
 * @returns whether the condition held.
 */
export async function waitFor(check: () => boolean, limitMs = 10_000): Promise<boolean> {
  const end = Date.now() + limitMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The spec the integration tests run commands with: in the thread's
 * workspace, the runner's environment, 30 s, 1 MiB of output, no network.
 *
 * @param runner - gives the base environment.
 * @param fields - the command, its mounts and limits, and anything to override.
 */
export function testSpec(
  runner: CommandRunner,
  fields: Pick<CommandSpec, "command" | "mounts" | "limits"> & Partial<CommandSpec>,
): CommandSpec {
  return {
    cwd: "/mnt/user-data/workspace",
    env: commandEnvironment(runner),
    timeoutMs: 30_000,
    maxOutputBytes: 1 << 20,
    network: false,
    ...fields,
  };
}

/** Host directories of a test thread. */
export interface ThreadDirs {
  readonly userData: string;
  readonly workspace: string;
  readonly uploads: string;
  readonly outputs: string;
  readonly skills: string;
  /** Another thread's workspace, which must stay invisible. */
  readonly otherWorkspace: string;
}

/**
 * Creates `<root>/threads/{t1,t2}/user-data/...` and `<root>/skills/public`
 * and returns the mounts of thread t1 as LocalSandbox would set them up.
 */
export async function makeThread(root: string): Promise<{ dirs: ThreadDirs; mounts: Mount[] }> {
  const userData = path.join(root, "threads", "t1", "user-data");
  const dirs: ThreadDirs = {
    userData,
    workspace: path.join(userData, "workspace"),
    uploads: path.join(userData, "uploads"),
    outputs: path.join(userData, "outputs"),
    skills: path.join(root, "skills"),
    otherWorkspace: path.join(root, "threads", "t2", "user-data", "workspace"),
  };
  for (const dir of [
    dirs.workspace,
    dirs.uploads,
    dirs.outputs,
    dirs.otherWorkspace,
    path.join(dirs.skills, "public", "demo"),
  ]) {
    await mkdir(dir, { recursive: true });
  }
  await writeFile(path.join(dirs.skills, "public", "demo", "SKILL.md"), "# demo\n");
  await writeFile(path.join(dirs.otherWorkspace, "secret.txt"), "other thread\n");
  for (const dir of [path.join(dirs.skills, "public", "demo"), path.join(dirs.skills, "public"), dirs.skills])
    await chmod(dir, 0o755);
  await chmod(path.join(dirs.skills, "public", "demo", "SKILL.md"), 0o644);
  const mounts: Mount[] = [
    { virtualPath: "/mnt/user-data", hostPath: userData, readOnly: false },
    { virtualPath: "/mnt/user-data/workspace", hostPath: dirs.workspace, readOnly: false },
    { virtualPath: "/mnt/user-data/uploads", hostPath: dirs.uploads, readOnly: false },
    { virtualPath: "/mnt/user-data/outputs", hostPath: dirs.outputs, readOnly: false },
    { virtualPath: "/mnt/skills", hostPath: dirs.skills, readOnly: true },
  ];
  return { dirs, mounts };
}
