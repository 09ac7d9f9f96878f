/**
 * Reads the entry count from a zip's end-of-central-directory record without
 * parsing the directory itself.
 *
 * unzipper allocates one object per declared record before it can report how
 * many there are, and a forged ZIP64 record can declare billions. Reading the
 * count first lets the entry cap reject such a file in O(1) memory.
 */
import { open } from "node:fs/promises";
import { SkillsError } from "../errors.js";

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const ZIP64_EOCD_SIZE = 56;

/** Message DeerFlow uses for anything that is not a readable zip. */
export const NOT_A_ZIP_MESSAGE = "File is not a valid ZIP archive";

function notAZip(cause?: unknown): SkillsError {
  return new SkillsError("ARCHIVE_INVALID", NOT_A_ZIP_MESSAGE, cause === undefined ? undefined : { cause });
}

/** Where a zip's end record is and how many entries it declares. */
export interface ZipEnd {
  /** Declared entry count (`Infinity` for a ZIP64 count beyond 2^53). */
  readonly entryCount: number;
  /** Absolute offset of the classic end-of-central-directory record. */
  readonly endRecordOffset: number;
  /** File size in bytes. */
  readonly size: number;
}

/**
 * Returns the total number of entries a zip file declares.
 *
 * @param file - path of the zip file.
 * @returns the declared entry count.
 * @throws SkillsError `ARCHIVE_INVALID` as {@link readZipEnd}.
 */
export async function readZipEntryCount(file: string): Promise<number> {
  return (await readZipEnd(file)).entryCount;
}

/**
 * Locates a zip's end record and reads the entry count it declares.
 *
 * Finds the last end-of-central-directory record in the final 64 KiB + 22
 * bytes (the record may be followed by a comment of up to 65,535 bytes) and
 * follows the ZIP64 locator when the classic fields are saturated.
 *
 * @param file - path of the zip file.
 * @returns see {@link ZipEnd}.
 * @throws SkillsError `ARCHIVE_INVALID` ("File is not a valid ZIP archive")
 *   when no end record is found or the ZIP64 records are malformed.
 */
export async function readZipEnd(file: string): Promise<ZipEnd> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size < EOCD_SIZE) throw notAZip();
    const tailLength = Math.min(size, EOCD_SIZE + MAX_COMMENT);
    const tailStart = size - tailLength;
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, tailStart);
    let at = -1;
    for (let i = tailLength - EOCD_SIZE; i >= 0; i -= 1) {
      if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
        at = i;
        break;
      }
    }
    if (at < 0) throw notAZip();
    const diskNumber = tail.readUInt16LE(at + 4);
    const totalEntries = tail.readUInt16LE(at + 10);
    const directoryOffset = tail.readUInt32LE(at + 16);
    const endRecordOffset = tailStart + at;
    const result = (entryCount: number): ZipEnd => ({ entryCount, endRecordOffset, size });
    if (diskNumber !== 0xffff && totalEntries !== 0xffff && directoryOffset !== 0xffffffff) return result(totalEntries);

    // ZIP64: the locator sits immediately before the classic end record.
    const locatorAt = tailStart + at - ZIP64_LOCATOR_SIZE;
    if (locatorAt < 0) throw notAZip();
    const locator = Buffer.alloc(ZIP64_LOCATOR_SIZE);
    await handle.read(locator, 0, ZIP64_LOCATOR_SIZE, locatorAt);
    if (locator.readUInt32LE(0) !== ZIP64_LOCATOR_SIGNATURE) {
      // Not ZIP64 after all: a classic archive with exactly 65,535 entries.
      return result(totalEntries);
    }
    const recordAt = locator.readBigUInt64LE(8);
    if (recordAt > BigInt(size - ZIP64_EOCD_SIZE)) throw notAZip();
    const record = Buffer.alloc(ZIP64_EOCD_SIZE);
    await handle.read(record, 0, ZIP64_EOCD_SIZE, Number(recordAt));
    if (record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) throw notAZip();
    const count = record.readBigUInt64LE(32);
    return result(count > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(count));
  } finally {
    await handle.close();
  }
}
