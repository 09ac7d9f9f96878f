import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** Creates temp dirs and removes them after each test. */
export function tempDirs(): { make(prefix?: string): Promise<string>; cleanup(): Promise<void> } {
  const dirs: string[] = [];
  return {
    async make(prefix = "deerflow-server-") {
      const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
      dirs.push(dir);
      return dir;
    },
    async cleanup() {
      await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
    },
  };
}

/** Writes files (creating folders) under `root`. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  }
}
