import { watch, type FSWatcher } from "node:fs";
import path from "node:path";
import type { Logger } from "../logger.js";

/** What {@link watchDebounced} watches. */
export interface WatchTarget {
  /** A directory to watch. */
  readonly dir: string;
  /** Watch the whole tree below `dir` (inotify-backed on Linux since Node 20). */
  readonly recursive: boolean;
  /** Only react to this entry name (e.g. a config file replaced by rename). */
  readonly fileName?: string;
}

/** A running watch; {@link DebouncedWatch.close} stops it for good. */
export interface DebouncedWatch {
  close(): void;
}

/**
 * Watches directories and calls `onChange` once per burst of events, after
 * `delayMs` of quiet. Editors and installers touch many files at once; one
 * invalidation per burst keeps the catalogue from rescanning for each of them.
 *
 * A target that cannot be watched (missing, inotify limit reached) is logged
 * and skipped: watching is an optimisation, `invalidate()` still works.
 *
 * @param targets - Directories to watch.
 * @param delayMs - Quiet period before `onChange` fires.
 * @param onChange - Called after each burst.
 * @param logger - Receives watch failures.
 * @returns A handle whose `close()` stops all watchers and the pending timer.
 */
export function watchDebounced(
  targets: readonly WatchTarget[],
  delayMs: number,
  onChange: () => void,
  logger: Logger,
): DebouncedWatch {
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const fire = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) onChange();
    }, delayMs);
    // A pending debounce must not keep a process alive on its own.
    timer.unref();
  };
  for (const target of targets) {
    try {
      const watcher = watch(target.dir, { recursive: target.recursive, persistent: true }, (_event, name) => {
        if (target.fileName !== undefined && name !== null && path.basename(String(name)) !== target.fileName) return;
        fire();
      });
      watcher.on("error", (err) => {
        logger.warn(
          { dir: path.basename(target.dir), error: String(err) },
          "Skills watcher failed; call invalidate() to pick up changes",
        );
        watcher.close();
      });
      watchers.push(watcher);
    } catch (err) {
      logger.warn({ dir: path.basename(target.dir), error: String(err) }, "Cannot watch skills directory");
    }
  }
  return {
    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
