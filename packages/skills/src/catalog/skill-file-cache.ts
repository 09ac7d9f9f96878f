import fs from "node:fs/promises";
import { loadSkillFile, type LoadSkillOptions, type SkillLoadResult } from "../parsing/load-skill.js";

interface Entry {
  readonly key: string;
  readonly result: SkillLoadResult;
}

/**
 * Remembers parsed SKILL.md files between scans of one catalogue, so a
 * reload re-parses only what changed. Parsing (YAML plus validation) is most
 * of a scan's cost; a `stat` is a small fraction of it.
 *
 * A file counts as unchanged when device, inode, size, modification time and
 * change time (nanoseconds) are all equal. The change time cannot be set from
 * user space and moves on every write, rename or chmod, so even tools that
 * restore modification times (`tar`, `cp -p`, `rsync -t`) cannot make an edit
 * look unchanged. The stat is taken before the read, so an edit that races a
 * load is picked up by the next scan.
 */
export class SkillFileCache {
  #entries = new Map<string, Entry>();
  #seen = new Set<string>();

  /** Number of cached files. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Loads `file` with the lenient loader, or returns the previous result when
   * the file is unchanged. Unexpected I/O errors are not cached.
   *
   * @param file - Absolute path of SKILL.md.
   * @param options - Loader options; category and categoryRoot are part of the key.
   * @returns The loader's result.
   * @throws Whatever {@link loadSkillFile} throws.
   */
  async load(file: string, options: LoadSkillOptions): Promise<SkillLoadResult> {
    this.#seen.add(file);
    let key: string | undefined;
    try {
      const s = await fs.stat(file, { bigint: true });
      key = `${options.category}\u0000${options.categoryRoot}\u0000${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    } catch {
      // Missing or unreadable: let the loader produce its specific reason.
    }
    const cached = key === undefined ? undefined : this.#entries.get(file);
    if (cached && cached.key === key) return cached.result;
    const result = await loadSkillFile(file, options);
    if (key === undefined) this.#entries.delete(file);
    else this.#entries.set(file, { key, result });
    return result;
  }

  /** Starts a scan: files not loaded again before {@link SkillFileCache.endScan} are forgotten. */
  beginScan(): void {
    this.#seen = new Set();
  }

  /** Ends a scan, dropping entries of files that no longer exist in the tree. */
  endScan(): void {
    for (const file of this.#entries.keys()) if (!this.#seen.has(file)) this.#entries.delete(file);
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
    this.#seen.clear();
  }
}
