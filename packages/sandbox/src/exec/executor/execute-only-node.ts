/**
 * An execute-only copy of the host's `node` binary, for the executor.
 *
 * Commands run as the executor's uid, so by default they could ptrace it, or
 * read its `/proc/<pid>/{environ,mem,fd}`, and through it reach the control
 * channel (other commands' requests, forged results). The kernel marks a
 * process started from a binary it cannot read as not dumpable, and ties its
 * memory to the user namespace that owns the file: ptrace and those `/proc`
 * files then need a capability the sandbox never has. A copy with mode 0111
 * gives exactly that; the copy is made once per host (per uid and node
 * build) in a private folder of the temporary directory, and checked before
 * each use.
 */
import { createHash } from "node:crypto";
import { lstatSync, realpathSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** Mode of the copy: anyone may execute it, nobody may read or write it. */
const EXECUTE_ONLY = 0o111;

/** Mode of its folder: only the owner lists or changes it. */
const PRIVATE_DIR = 0o711;

let pending: Promise<string> | undefined;

/**
 * The path of the execute-only copy of `node`, made on first use and again
 * whenever it has gone (a cleaned temporary directory).
 *
 * @returns the host path of the copy.
 * @throws the filesystem error when no copy can be made (the caller falls back to the readable binary).
 */
export function executeOnlyNode(): Promise<string> {
  const current = pending;
  if (current !== undefined) {
    return current.then(
      (file) => (isIntactCopy(file, realpathSync(process.execPath)) ? file : reset()),
      () => reset(),
    );
  }
  return reset();
}

function reset(): Promise<string> {
  pending = makeCopy();
  return pending;
}

async function makeCopy(): Promise<string> {
  const source = realpathSync(process.execPath);
  const info = statSync(source);
  const uid = process.geteuid?.() ?? 0;
  const tag = createHash("sha256")
    .update(`${source}\0${info.size}\0${info.mtimeMs}\0${info.ino}`)
    .digest("hex")
    .slice(0, 16);
  let dir = path.join(os.tmpdir(), `deerflow-executor-${uid}-${tag}`);
  const file = (d: string) => path.join(d, "node");
  try {
    await fs.mkdir(dir, { mode: PRIVATE_DIR });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    if (isPrivateDir(dir, uid) && isIntactCopy(file(dir), source)) return file(dir);
    // Someone else's folder, or a broken copy: make a fresh one beside it.
    dir = await fs.mkdtemp(path.join(os.tmpdir(), `deerflow-executor-${uid}-`));
    await fs.chmod(dir, PRIVATE_DIR);
  }
  if (!isPrivateDir(dir, uid)) throw new Error("the executor's binary folder is not private");
  const temp = path.join(dir, `.node-${process.pid}-${Date.now()}`);
  try {
    await fs.copyFile(source, temp);
    await fs.chmod(temp, EXECUTE_ONLY);
    await fs.rename(temp, file(dir));
  } finally {
    await fs.rm(temp, { force: true });
  }
  return file(dir);
}

function isPrivateDir(dir: string, uid: number): boolean {
  try {
    const stats = lstatSync(dir);
    return stats.isDirectory() && stats.uid === uid && (stats.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function isIntactCopy(file: string, source: string): boolean {
  try {
    const copy = lstatSync(file);
    return (
      copy.isFile() &&
      copy.uid === (process.geteuid?.() ?? 0) &&
      (copy.mode & 0o777) === EXECUTE_ONLY &&
      copy.nlink === 1 &&
      copy.size === statSync(source).size
    );
  } catch {
    return false;
  }
}
