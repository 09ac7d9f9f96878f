/**
 * A small least-recently-used map on top of `Map`'s insertion order: reading
 * through {@link LruCache.get} or writing moves an entry to the back, and the
 * front entry is dropped once the map is over capacity.
 */

/**
 * Least-recently-used cache with a fixed capacity. `undefined` is a valid value.
 *
 * @example
 * ```ts
 * const cache = new LruCache<string, string>(32);
 * cache.set("k", "v");
 * cache.get("k"); // "v", and "k" becomes the most recent entry
 * ```
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #capacity: number;

  /**
   * @param capacity - Most entries kept (a positive integer).
   * @throws RangeError when `capacity` is not a positive integer.
   */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`LRU capacity must be a positive integer, got ${capacity}`);
    this.#capacity = capacity;
  }

  /** Number of entries. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Returns an entry and marks it most recently used.
   *
   * @param key - The key.
   * @returns The value, or `undefined` when absent.
   */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /**
   * Inserts or replaces an entry as most recently used, evicting the least
   * recently used ones beyond capacity.
   *
   * @param key - The key.
   * @param value - The value.
   * @returns The evicted entries, oldest first (so the caller can close them).
   */
  set(key: K, value: V): Array<[K, V]> {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    const evicted: Array<[K, V]> = [];
    while (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.entries().next().value as [K, V];
      this.#entries.delete(oldest[0]);
      evicted.push(oldest);
    }
    return evicted;
  }

  /**
   * Removes an entry.
   *
   * @param key - The key.
   * @returns Whether it was present.
   */
  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  /** The values, least recently used first (a snapshot). */
  values(): V[] {
    return [...this.#entries.values()];
  }

  /** Removes every entry. */
  clear(): void {
    this.#entries.clear();
  }
}
