/**
 * Maps `items` through an async `fn` with at most `limit` calls in flight and
 * returns the results in input order (like `Promise.all`, but bounded).
 *
 * Bounding matters for discovery: opening 5,000 SKILL.md files at once would
 * risk `EMFILE` and thrash the disk queue, while a serial loop wastes the
 * parallelism the kernel offers. The first rejection rejects the whole call;
 * workers stop picking up new items once one has failed.
 *
 * @param items - Inputs, processed in order of index.
 * @param limit - Maximum concurrent calls (values below 1 are treated as 1).
 * @param fn - The async mapper; receives the item and its index.
 * @returns The mapped values, index-aligned with `items`.
 * @example
 * ```ts
 * const texts = await mapConcurrent(files, 32, (f) => readFile(f, "utf8"));
 * ```
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
