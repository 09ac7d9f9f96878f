/**
 * Test-only builders for hostile zip fixtures. Everything is generated at test
 * time with yazl; names yazl refuses (`../x`, `/abs`, `C:x`) are produced by
 * writing a same-length placeholder and patching the bytes afterwards (the CRC
 * covers only the data, so the archive stays valid).
 */
import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { readFile, writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yazl from "yazl";

/** One member of a fixture archive. */
export interface FixtureEntry {
  readonly name: string;
  /** File content; omit for a directory (`name` ending in `/`). */
  readonly data?: string | Buffer;
  /** Content streamed lazily (for huge members); wins over `data`. */
  readonly stream?: () => Readable;
  /** Unix mode including the file type bits, e.g. `0o120777` for a symlink. */
  readonly mode?: number;
  readonly compress?: boolean;
}

const FIXED_MTIME = new Date(2020, 0, 1);

/** Writes a zip made of `entries` to `file` (with ZIP64 end records when `zip64`). */
export async function writeZip(
  file: string,
  entries: readonly FixtureEntry[],
  options: { zip64?: boolean } = {},
): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    const options = {
      mtime: FIXED_MTIME,
      ...(e.mode !== undefined ? { mode: e.mode } : {}),
      ...(e.compress !== undefined ? { compress: e.compress } : {}),
    };
    if (e.stream) {
      const make = e.stream;
      zip.addReadStreamLazy(e.name, options, (cb) => cb(null, make()));
    } else if (e.data === undefined) {
      zip.addEmptyDirectory(e.name, { mtime: FIXED_MTIME, ...(e.mode !== undefined ? { mode: e.mode } : {}) });
    } else {
      zip.addBuffer(typeof e.data === "string" ? Buffer.from(e.data) : e.data, e.name, options);
    }
  }
  zip.end({ forceZip64Format: options.zip64 === true, comment: "" });
  await pipeline(zip.outputStream, createWriteStream(file));
}

/** A stream of `total` zero bytes, produced 1 MiB at a time from one shared buffer. */
export function zeroStream(total: number): Readable {
  const chunk = Buffer.alloc(1 << 20);
  let left = total;
  return new Readable({
    read() {
      if (left <= 0) {
        this.push(null);
        return;
      }
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

/**
 * Replaces every occurrence of the member name `from` by `to` (same byte
 * length) in the zip at `file`.
 *
 * @returns how many occurrences were patched (2 for one member: local header
 *   and central directory).
 */
export async function patchZipName(file: string, from: string, to: string): Promise<number> {
  const a = Buffer.from(from);
  const b = Buffer.from(to);
  if (a.length !== b.length) throw new Error("patchZipName: names must have the same byte length");
  const buf = await readFile(file);
  let count = 0;
  for (let at = buf.indexOf(a); at >= 0; at = buf.indexOf(a, at + a.length)) {
    b.copy(buf, at);
    count += 1;
  }
  await writeFile(file, buf);
  return count;
}

/**
 * Overwrites the declared uncompressed size of every member (central directory
 * and local header) with `declared(name, realSize)`.
 */
export async function forgeDeclaredSizes(
  file: string,
  declared: (name: string, real: number) => number,
): Promise<void> {
  const buf = await readFile(file);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = buf.readUInt32LE(eocd + 16);
  const count = buf.readUInt16LE(eocd + 10);
  for (let i = 0; i < count; i += 1) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error("forgeDeclaredSizes: bad central directory");
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const localAt = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const size = declared(name, buf.readUInt32LE(at + 24));
    buf.writeUInt32LE(size, at + 24);
    if (buf.readUInt32LE(localAt + 22) !== 0) buf.writeUInt32LE(size, localAt + 22);
    at += 46 + nameLength + extraLength + commentLength;
  }
  await writeFile(file, buf);
}

/** A minimal valid SKILL.md. */
export function skillMd(name: string, description = `The ${name} skill.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nDo the thing.\n`;
}

/** A member for {@link writeZipInChildProcess}: text, or `zeros` zero bytes. */
export type ChildZipEntry =
  | { readonly name: string; readonly text: string }
  | { readonly name: string; readonly zeros: number };

const CHILD_SCRIPT = `
const [yazlPath, file, json] = process.argv.slice(1);
const { default: yazl } = await import(yazlPath);
const { createWriteStream } = await import("node:fs");
const { Readable } = await import("node:stream");
const { pipeline } = await import("node:stream/promises");
const chunk = Buffer.alloc(1 << 20);
function zeros(total) {
  let left = total;
  return new Readable({ read() { if (left <= 0) return this.push(null); const n = Math.min(left, chunk.length); left -= n; this.push(chunk.subarray(0, n)); } });
}
const zip = new yazl.ZipFile();
const mtime = new Date(2020, 0, 1);
for (const e of JSON.parse(json)) {
  if ("text" in e) zip.addBuffer(Buffer.from(e.text), e.name, { mtime });
  else zip.addReadStreamLazy(e.name, { mtime }, (cb) => cb(null, zeros(e.zeros)));
}
zip.end();
await pipeline(zip.outputStream, createWriteStream(file));
`;

/**
 * Writes a zip like {@link writeZip}, but in a child process, so that
 * compressing gigabytes of zeros does not inflate this process's memory
 * before a test measures its baseline.
 */
export async function writeZipInChildProcess(file: string, entries: readonly ChildZipEntry[]): Promise<void> {
  const yazlPath = pathToFileURL(createRequire(import.meta.url).resolve("yazl")).href;
  await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "-e", CHILD_SCRIPT, yazlPath, file, JSON.stringify(entries)],
    {
      maxBuffer: 1 << 20,
    },
  );
}
