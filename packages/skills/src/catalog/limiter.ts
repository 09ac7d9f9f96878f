/** Runs a task once a slot is free; see {@link createLimiter}. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * A counting semaphore for async tasks: at most `limit` run at once, the rest
 * wait in FIFO order. Unlike {@link mapConcurrent} it accepts tasks while
 * others are running, which lets discovery start loading SKILL.md files
 * while the directory walk is still going.
 *
 * @param limit - Maximum concurrent tasks (values below 1 are treated as 1).
 * @returns A function that schedules a task and resolves with its result.
 * @example
 * ```ts
 * const limit = createLimiter(16);
 * const results = await Promise.all(files.map((f) => limit(() => readFile(f))));
 * ```
 */
export function createLimiter(limit: number): Limiter {
  const max = Math.max(1, Math.floor(limit) || 1);
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    active--;
    const next = waiting.shift();
    if (next) {
      active++;
      next();
    }
  };
  return <T>(task: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = (): void => {
        task().then(resolve, reject).finally(release);
      };
      if (active < max) {
        active++;
        start();
      } else waiting.push(start);
    });
}
