/**
 * Skipping the ownership pass when there is nothing to hand over.
 *
 * As root, every command used to start with `chown -R -h --from=0` over the
 * writable mounts (see `ownership.ts`): one more process and a walk of every
 * entry, for a pass that almost always changes nothing. A root-owned entry
 * can only appear where something running as root created it, or renamed or
 * linked it in, and each of those changes its parent directory's ctime (which,
 * unlike mtime, nobody can set back). So the watch remembers every directory
 * of the writable mounts with its ctime; before a command it re-reads only
 * the ctimes, looks inside the directories that changed (and the new ones
 * found there), and runs the pass only when it meets an entry owned by root.
 *
 * The look-around is a detector, nothing more: it reads metadata by path, so
 * a command swapping folders for symlinks at the same moment can make it see
 * something else, which at worst runs the pass for nothing or leaves a file of
 * the sandbox's own making unadopted until the next command. The ownership
 * change itself stays the symlink-safe `chown -R -h` of `ownership.ts`.
 */
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { outermostDirectories } from "./ownership.js";

/**
 * A ctime this close to (or after) the start of the previous look is not
 * trusted: timestamps are coarse (a clock tick), so a change made just after
 * that look may carry a ctime from just before it.
 */
const CTIME_TRUST_MARGIN_MS = 1000;

/** Past this many directories the watch gives up and the pass runs before every command, as without it. */
const MAX_WATCHED_DIRECTORIES = 20_000;

/** Options of {@link OwnershipWatch}. */
export interface OwnershipWatchOptions {
  /** Owner whose entries are handed over (0: root). */
  readonly fromUid: number;
  /** The ownership pass over the roots (`adoptForSandbox`). */
  readonly adopt: (roots: readonly string[]) => Promise<void>;
  /** Clock; tests move it. */
  readonly now?: () => number;
}

/**
 * Runs the ownership pass over a sandbox's writable directories only when a
 * directory changed and holds an entry of `fromUid`.
 *
 * @example
 * ```ts
 * const watch = new OwnershipWatch(writableDirs, { fromUid: 0, adopt: (roots) => adoptForSandbox(roots, identity) });
 * await watch.prepare(); // before each command
 * ```
 */
export class OwnershipWatch {
  readonly #roots: readonly string[];
  readonly #options: OwnershipWatchOptions;
  readonly #now: () => number;
  /** Directory → ctime when last looked inside. */
  readonly #ctimes = new Map<string, number>();
  /** When the previous look started; undefined before the first, or after giving up. */
  #lastLook: number | undefined;
  #gaveUp = false;
  #running: Promise<boolean> | undefined;
  #queued: Promise<boolean> | undefined;

  /**
   * @param roots - host directories of the writable mounts (resolved).
   * @param options - see {@link OwnershipWatchOptions}.
   */
  constructor(roots: readonly string[], options: OwnershipWatchOptions) {
    this.#roots = outermostDirectories(roots);
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Makes sure no entry of `fromUid` is left in the roots, running the pass
   * if one is found. A call made while a look is under way waits for the
   * next one (which it shares with other such calls), since the running look
   * may already have passed the caller's latest change.
   *
   * @returns whether the pass ran.
   */
  prepare(): Promise<boolean> {
    if (this.#running === undefined) return this.#start();
    this.#queued ??= this.#running
      .catch(() => false)
      .then(() => {
        this.#queued = undefined;
        return this.#start();
      });
    return this.#queued;
  }

  #start(): Promise<boolean> {
    const run: Promise<boolean> = this.#prepare().finally(() => {
      if (this.#running === run) this.#running = undefined;
    });
    this.#running = run;
    return run;
  }

  async #prepare(): Promise<boolean> {
    if (this.#gaveUp) {
      await this.#options.adopt(this.#roots);
      return true;
    }
    const started = this.#now();
    const found = await this.#look(this.#lastLook);
    if (this.#ctimes.size > MAX_WATCHED_DIRECTORIES) {
      this.#gaveUp = true;
      this.#ctimes.clear();
      await this.#options.adopt(this.#roots);
      return true;
    }
    if (found) await this.#options.adopt(this.#roots);
    this.#lastLook = started;
    return found;
  }

  /** Looks into every changed or new directory; true when an entry of `fromUid` is there. */
  async #look(lastLook: number | undefined): Promise<boolean> {
    let queue: string[];
    if (lastLook === undefined) {
      this.#ctimes.clear();
      queue = [...this.#roots];
    } else {
      const trustedBefore = lastLook - CTIME_TRUST_MARGIN_MS;
      const checks = await Promise.all(
        [...this.#ctimes].map(async ([dir, ctime]) => {
          const stats = await fs.lstat(dir).catch(() => undefined);
          if (stats === undefined || !stats.isDirectory()) {
            this.#ctimes.delete(dir);
            return undefined;
          }
          return stats.ctimeMs !== ctime || ctime >= trustedBefore ? dir : undefined;
        }),
      );
      queue = checks.filter((d): d is string => d !== undefined);
    }
    let found = false;
    while (queue.length > 0 && this.#ctimes.size <= MAX_WATCHED_DIRECTORIES) {
      const batch = queue.splice(0, 64);
      const results = await Promise.all(batch.map((dir) => this.#lookInside(dir)));
      for (const result of results) {
        found ||= result.found;
        queue.push(...result.newDirectories);
      }
    }
    return found;
  }

  async #lookInside(dir: string): Promise<{ found: boolean; newDirectories: string[] }> {
    const stats = await fs.lstat(dir).catch(() => undefined);
    if (stats === undefined || !stats.isDirectory()) {
      this.#ctimes.delete(dir);
      return { found: false, newDirectories: [] };
    }
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      // Unreadable (or gone): let the pass decide.
      this.#ctimes.delete(dir);
      return { found: true, newDirectories: [] };
    }
    this.#ctimes.set(dir, stats.ctimeMs);
    let found = stats.uid === this.#options.fromUid;
    const newDirectories: string[] = [];
    const owners = await Promise.all(
      entries.map(async (entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          // A known directory is checked through its own ctime.
          if (!this.#ctimes.has(full)) newDirectories.push(full);
          return undefined;
        }
        return (await fs.lstat(full).catch(() => undefined))?.uid;
      }),
    );
    found ||= owners.includes(this.#options.fromUid);
    return { found, newDirectories };
  }
}
