/** A generated tree of text files for the grep benchmark. */
import fs from "node:fs/promises";
import path from "node:path";

/** What {@link generateTextTree} made. */
export interface TextTree {
  readonly files: number;
  readonly bytes: number;
  /** Lines containing the needle. */
  readonly needleLines: number;
}

const WORDS = [
  "sandbox",
  "agent",
  "thread",
  "skill",
  "workspace",
  "upload",
  "output",
  "grep",
  "glob",
  "mount",
  "virtual",
  "path",
  "limit",
  "timeout",
];

/**
 * Writes `count` files of 40 lines (about 2 KB each) in 100 directories under
 * `root`; one file in 200 has one line with `needle`.
 *
 * @param root - Existing directory.
 * @param count - Number of files.
 * @param needle - The rare word.
 * @returns Sizes, for the report.
 */
export async function generateTextTree(root: string, count: number, needle: string): Promise<TextTree> {
  let bytes = 0;
  let needleLines = 0;
  const perDir = Math.ceil(count / 100);
  for (let start = 0; start < count; start += 256) {
    const batch: Promise<void>[] = [];
    for (let i = start; i < Math.min(count, start + 256); i++) {
      const lines: string[] = [];
      for (let l = 0; l < 40; l++) {
        const words = Array.from({ length: 8 }, (_, w) => WORDS[(i * 7 + l * 3 + w * 5) % WORDS.length] as string);
        lines.push(`${l}: ${words.join(" ")} ${(i * 31 + l) % 997}`);
      }
      if (i % 200 === 17) {
        lines[20] = `found the ${needle} here`;
        needleLines++;
      }
      const text = `${lines.join("\n")}\n`;
      bytes += Buffer.byteLength(text);
      const dir = path.join(root, `d${String(Math.floor(i / perDir)).padStart(3, "0")}`);
      batch.push(fs.mkdir(dir, { recursive: true }).then(() => fs.writeFile(path.join(dir, `f${i}.txt`), text)));
    }
    await Promise.all(batch);
  }
  return { files: count, bytes, needleLines };
}
