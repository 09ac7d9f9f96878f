/**
 * Archive member name rules, shared by extraction and the archive preflight.
 *
 * The rules are DeerFlow's (`_is_unsafe_zip_member`): they are applied to the
 * name as written in the zip, after turning `\` into `/`, and they reject a
 * name outright instead of trying to "clean" it, because a cleaned name means a
 * different file than the one a reviewer saw in the listing.
 */

/** `C:`, `c:/`, `C:\` (after conversion): a Windows drive-absolute or drive-relative name. */
const WINDOWS_DRIVE = /^[A-Za-z]:/;

/**
 * Converts a raw member name to forward slashes, the form every other check
 * and the extractor use.
 *
 * @param name - the name as stored in the archive's central directory.
 * @returns the name with every `\` replaced by `/`.
 */
export function toPosixMemberName(name: string): string {
  return name.replace(/\\/g, "/");
}

/**
 * True when an archive member name must not be extracted.
 *
 * Unsafe means, after `\` → `/`: it starts with `/` (POSIX absolute or a UNC
 * `\\host\share` name); it is Windows-absolute (`C:\x`); any `/`-separated part
 * is `..`; or it contains `:` anywhere (NTFS alternate data streams such as
 * `a:b`). A NUL byte is also unsafe (no file system can hold it, and C-level
 * tools would truncate the name there). The empty name is **not** unsafe; the
 * extractor simply skips it.
 *
 * @param name - the raw member name from the archive.
 * @returns true when the name is unsafe.
 * @example
 * ```ts
 * isUnsafeMemberName("../x");       // true
 * isUnsafeMemberName("C:\\x");      // true
 * isUnsafeMemberName("a:b");        // true
 * isUnsafeMemberName("skill/a..b"); // false: `..` must be a whole part
 * ```
 */
export function isUnsafeMemberName(name: string): boolean {
  if (name === "") return false;
  const posix = toPosixMemberName(name);
  if (posix.startsWith("/")) return true;
  if (WINDOWS_DRIVE.test(posix)) return true;
  if (posix.includes(":")) return true;
  if (posix.includes("\0")) return true;
  return posix.split("/").some((part) => part === "..");
}

/**
 * Splits a safe member name into the path parts to create under the
 * destination, dropping empty and `.` parts (`a//./b` → `["a", "b"]`).
 *
 * @param name - a name for which {@link isUnsafeMemberName} is false.
 * @returns the parts; empty for names that denote the destination itself.
 */
export function memberPathParts(name: string): string[] {
  return toPosixMemberName(name)
    .split("/")
    .filter((part) => part !== "" && part !== ".");
}
