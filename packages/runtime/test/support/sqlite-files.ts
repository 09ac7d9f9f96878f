/**
 * SQLite files for the store tests: a fresh temp directory per use, and the
 * conformance factories of a file-backed store (each test on a new
 * `runs.sqlite`, several instances opening one file). Shared by the run,
 * account and assistant store tests.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh directory under the OS temp dir, removed by `cleanup`. */
export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * `makeStore` and `makeInstances` of a store kit: the store of a test opens
 * `runs.sqlite` in a fresh temp directory; instances open one such file each
 * with their own connection (as two processes would). The kit closes the
 * stores; `cleanup` removes the directory.
 *
 * @param prefix - the temp directory's name prefix
 * @param open - opens the store on a file path (synchronously or not)
 */
export function freshFileStores<Store>(
  prefix: string,
  open: (path: string) => Store | Promise<Store>,
): {
  makeStore: () => Promise<{ store: Store; cleanup: () => Promise<void> }>;
  makeInstances: (count: number) => Promise<{ stores: Store[]; cleanup: () => Promise<void> }>;
} {
  return {
    async makeStore() {
      const { dir, cleanup } = await tempDir(prefix);
      return { store: await open(join(dir, "runs.sqlite")), cleanup };
    },
    async makeInstances(count) {
      const { dir, cleanup } = await tempDir(prefix);
      const path = join(dir, "runs.sqlite");
      return { stores: await Promise.all(Array.from({ length: count }, () => open(path))), cleanup };
    },
  };
}
