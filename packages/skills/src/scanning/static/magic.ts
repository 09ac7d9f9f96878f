/**
 * Byte-signature checks: executable binaries and archives. Only full magics
 * count (`FE ED FA 00` is not Mach-O), so PNGs and other assets pass.
 */

const EXECUTABLE_MAGICS: ReadonlyArray<{ bytes: readonly number[]; kind: string }> = [
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: "ELF" },
  { bytes: [0x4d, 0x5a], kind: "PE" },
  { bytes: [0xfe, 0xed, 0xfa, 0xce], kind: "Mach-O" },
  { bytes: [0xfe, 0xed, 0xfa, 0xcf], kind: "Mach-O" },
  { bytes: [0xce, 0xfa, 0xed, 0xfe], kind: "Mach-O" },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], kind: "Mach-O" },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], kind: "Mach-O" },
  { bytes: [0xbe, 0xba, 0xfe, 0xca], kind: "Mach-O" },
  { bytes: [0xca, 0xfe, 0xba, 0xbf], kind: "Mach-O" },
  { bytes: [0xbf, 0xba, 0xfe, 0xca], kind: "Mach-O" },
];

const ARCHIVE_MAGICS: readonly (readonly number[])[] = [
  [0x50, 0x4b, 0x03, 0x04], // zip
  [0x1f, 0x8b], // gzip
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], // 7z
];

/** File name endings that mark a nested archive whatever its bytes. */
const ARCHIVE_SUFFIXES = [
  ".zip",
  ".tar",
  ".tar.gz",
  ".tgz",
  ".tar.bz2",
  ".tbz2",
  ".tar.xz",
  ".txz",
  ".7z",
  ".rar",
  ".whl",
] as const;

function startsWith(prefix: Uint8Array, magic: readonly number[]): boolean {
  if (prefix.length < magic.length) return false;
  return magic.every((byte, i) => prefix[i] === byte);
}

/**
 * Names the executable format a file starts with.
 *
 * @param prefix - the first bytes of the file (4 are enough).
 * @returns `"ELF"`, `"PE"` or `"Mach-O"`, or `null` when it is not an executable.
 */
export function executableKind(prefix: Uint8Array): string | null {
  for (const { bytes, kind } of EXECUTABLE_MAGICS) if (startsWith(prefix, bytes)) return kind;
  return null;
}

/**
 * True when the bytes start with a zip, gzip or 7z signature.
 *
 * @param prefix - the first bytes of the file.
 * @returns whether it looks like an archive.
 */
export function looksLikeArchive(prefix: Uint8Array): boolean {
  return ARCHIVE_MAGICS.some((magic) => startsWith(prefix, magic));
}

/**
 * True when the bytes start with the zip local-file-header signature.
 *
 * @param prefix - the first bytes of the file.
 * @returns whether it is a zip.
 */
export function looksLikeZip(prefix: Uint8Array): boolean {
  return startsWith(prefix, ARCHIVE_MAGICS[0] ?? []);
}

/**
 * True when a path ends with a known archive suffix (case-insensitive).
 *
 * @param relPath - package-relative path.
 * @returns whether the name marks an archive.
 */
export function hasArchiveSuffix(relPath: string): boolean {
  const lower = relPath.toLowerCase();
  return ARCHIVE_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}
