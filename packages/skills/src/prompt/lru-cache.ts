/**
 * A small least-recently-used map. `Map` keeps insertion order, so the first
 * key is always the least recently used one once reads re-insert.
 *
 * @example
 * ```ts
 * const cache = new LruCache<string, string>(32);
 * cache.set("k", "v");
 * cache.get("k"); // "v", and "k" becomes the most recent entry
 * ```
 */
export class LruCache<K, V> {
  readonly #max: number;
  readonly #map = new Map<K, V>();

  /** @param max - Entries kept (at least 1). */
  constructor(max: number) {
    this.#max = Math.max(1, Math.floor(max));
  }

  /** Number of entries. */
  get size(): number {
    return this.#map.size;
  }

  /** The value for `key`, marking it most recently used. */
  get(key: K): V | undefined {
    if (!this.#map.has(key)) return undefined;
    const value = this.#map.get(key) as V;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  /** Stores `value`, evicting the least recently used entry when full. */
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.#max) {
      const oldest = this.#map.keys().next();
      if (oldest.done) break;
      this.#map.delete(oldest.value);
    }
  }

  /** Drops every entry. */
  clear(): void {
    this.#map.clear();
  }
}
