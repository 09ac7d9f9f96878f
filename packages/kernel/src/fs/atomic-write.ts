/**
 * Crash-safe file replacement: readers see the old content or the new one,
 * never a mix, and a crash at any point leaves the old file intact.
 */
import { randomBytes } from "node:crypto";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /**
   * Permission bits. A number applies to a new file only (an existing file
   * keeps its own mode; default `0o644`); a function maps the existing mode
   * (`undefined` for a new file) to the mode to write.
   */
  readonly mode?: number | ((existing: number | undefined) => number);
}

/**
 * Replaces `file` with `data` atomically.
 *
 * The data goes to `.<name>.<random>.tmp` in the same directory (same file
 * system, so the rename is atomic), gets its mode (the existing file's unless
 * told otherwise; exactly, whatever the umask), is fsynced and renamed over the
 * target; then the directory is fsynced on a best-effort basis so the rename
 * itself survives a power cut. On any failure the temp file is removed and the
 * error rethrown. `rename` replaces a symlink at `file` rather than writing
 * through it.
 *
 * @param file - The target path; its directory must exist.
 * @param data - The new content (UTF-8 for strings).
 * @param options - The mode to write.
 * @throws Node's error when writing or renaming fails (the target is unchanged).
 * @example
 * ```ts
 * await writeFileAtomic("/etc/deerflow/extensions_config.json", JSON.stringify(config, null, 2));
 * ```
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = path.dirname(file);
  const existing = await existingMode(file);
  const mode = typeof options.mode === "function" ? options.mode(existing) : (existing ?? options.mode ?? 0o644);
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await fs.open(temp, "wx", mode);
    try {
      await handle.writeFile(data);
      // open() applies the umask; chmod makes the mode exactly the wanted one.
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
  await fsyncDirectory(dir);
}

async function existingMode(file: string): Promise<number | undefined> {
  try {
    return (await fs.stat(file)).mode & 0o7777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/**
 * fsyncs a directory so a rename or creation in it survives a power cut (best
 * effort: some platforms and file systems refuse to open or sync a directory).
 *
 * @param dir - The directory.
 */
export async function fsyncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fs.open(dir, "r");
    await handle.sync();
  } catch {
    // Best effort by contract; see above.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
