/**
 * A minimal ZIP writer for hostile fixtures (names yazl refuses, symlinks, bombs).
 */
import { crc32, deflateRawSync } from "node:zlib";

export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer | string;
  /** Deflate the data (default: stored). */
  readonly deflate?: boolean;
  /** Mark as a symlink whose target is `data`. */
  readonly symlink?: boolean;
  /** Uncompressed size written in the headers (default: the real one); a smaller one forges a bomb. */
  readonly declaredSize?: number;
}

/** @returns the bytes of a ZIP archive holding `entries` in order. */
export function buildZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = typeof entry.data === "string" ? Buffer.from(entry.data) : entry.data;
    const body = entry.deflate ? deflateRawSync(raw) : raw;
    const name = Buffer.from(entry.name, "utf8");
    const crc = crc32(raw);
    const method = entry.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.declaredSize ?? raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.declaredSize ?? raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    const mode = entry.symlink ? 0o120777 : 0o100644;
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

/** SKILL.md text for a skill called `name`. */
export function skillMd(
  name: string,
  description = `Does ${name} things. Use when asked about ${name}.`,
  body = "# Instructions\n\nBe helpful.\n",
): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;
}

/** A valid `.skill` archive with a root folder named after the skill. */
export function skillArchive(name: string, extra: Record<string, string> = {}): Buffer {
  return buildZip([
    { name: `${name}/SKILL.md`, data: skillMd(name), deflate: true },
    ...Object.entries(extra).map(([rel, data]) => ({ name: `${name}/${rel}`, data, deflate: true })),
  ]);
}
