/**
 * Writing files behind virtual paths. Every step happens relative to the
 * parent directory the resolver holds open: missing folders are created
 * there one by one, a replacement is written to a temp file there and renamed
 * onto the name there (atomic, so readers and concurrent writers see one
 * whole version), an append opens the name there with `O_APPEND`. None of it
 * follows a symlink by path, so a folder swapped for a link meanwhile cannot
 * redirect a write out of the mount.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import type { Stats } from "node:fs";
import type { DirHandle } from "../paths/dir-handle.js";
import { errnoOf, isDirectoryError } from "../paths/fs-errors.js";
import { symlinkInTheWay, type MountResolver, type PathEntry } from "../paths/mount-resolver.js";
import { openRegularFile } from "../paths/safe-open.js";

/** Mode of new files before the umask, as `fs.writeFile`. */
const NEW_FILE_MODE = 0o666;

/** A write about to happen (passed to {@link WriteHooks.beforeWrite}). */
export interface WriteChange {
  /** The normalised virtual path asked for. */
  readonly virtualPath: string;
  /** Bytes the call writes. */
  readonly bytes: number;
  /** Size of the file the call replaces or appends to (0 when it is new). */
  readonly existingBytes: number;
  readonly append: boolean;
  /** The file does not exist yet. */
  readonly created: boolean;
  /** Parent folders this call has just created (they stay if the hook refuses the write). */
  readonly createdDirs: number;
}

/** Checks run inside the resolution, before any byte is written. */
export interface WriteHooks {
  /** Throw to refuse the write (for example a disk quota); no file is created or changed then. */
  readonly beforeWrite?: (change: WriteChange) => Promise<void>;
}

/**
 * Replaces (or creates) a file atomically, creating its parent folders. An
 * existing file keeps its mode; a symlink at the name is followed while it
 * stays in the mount.
 *
 * @param resolver - The sandbox's mounts.
 * @param virtualPath - The target.
 * @param data - Text (written as UTF-8) or bytes.
 * @param hooks - Checks before the write.
 * @throws {@link SandboxError} `IS_A_DIRECTORY`, `NOT_A_DIRECTORY` (a parent is a
 *   file), `PATH_ESCAPE`, `READ_ONLY`, `PERMISSION_DENIED`...; the old content survives any failure.
 */
export async function writeFileAtomic(
  resolver: MountResolver,
  virtualPath: string,
  data: string | Uint8Array,
  hooks: WriteHooks = {},
): Promise<void> {
  await atWriteTarget(resolver, virtualPath, data, false, hooks, async (dir, name, existing) => {
    const mode = existing?.isFile() === true ? existing.mode & 0o7777 : undefined;
    const temp = `.${name.slice(0, 100)}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      const handle = await dir.openFile(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
        mode ?? NEW_FILE_MODE,
      );
      try {
        await handle.writeFile(data);
        // open() applies the umask; an existing file's exact mode is restored.
        if (mode !== undefined) await handle.chmod(mode);
      } finally {
        await handle.close();
      }
      // Replaces whatever holds the name now, a symlink swapped in included, without following it.
      await dir.rename(temp, name);
    } catch (err) {
      await dir.unlink(temp).catch(() => undefined);
      throw err;
    }
  });
}

/**
 * Appends to a file, creating it (and its parent folders) when missing. A
 * symlink at the name is followed while it stays in the mount.
 *
 * @param resolver - The sandbox's mounts.
 * @param virtualPath - The target.
 * @param data - Text (written as UTF-8) or bytes.
 * @param hooks - Checks before the write.
 * @throws {@link SandboxError} as {@link writeFileAtomic}.
 */
export async function appendToFile(
  resolver: MountResolver,
  virtualPath: string,
  data: string | Uint8Array,
  hooks: WriteHooks = {},
): Promise<void> {
  await atWriteTarget(resolver, virtualPath, data, true, hooks, async (dir, name) => {
    const handle = await openRegularFile(dir, name, "append");
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  });
}

/**
 * Resolves a write's target with its parents created, looks at what holds
 * its name (a symlink is followed, a directory refused), asks the hooks
 * (before anything is created, so a refusal leaves no file), then writes.
 */
async function atWriteTarget(
  resolver: MountResolver,
  virtualPath: string,
  data: string | Uint8Array,
  append: boolean,
  hooks: WriteHooks,
  write: (dir: DirHandle, name: string, existing: Stats | undefined) => Promise<void>,
): Promise<void> {
  const bytes = typeof data === "string" ? Buffer.byteLength(data, "utf8") : data.byteLength;
  await resolver.withEntry(
    virtualPath,
    "write",
    async (entry) => {
      const { dir, name } = entry;
      if (name === undefined) throw isDirectoryError(entry.virtualPath);
      const existing = await lstatOrUndefined(entry, name);
      if (existing?.isSymbolicLink() === true) throw symlinkInTheWay();
      if (existing?.isDirectory() === true) throw isDirectoryError(entry.virtualPath);
      await hooks.beforeWrite?.(changeOf(entry, existing, bytes, append));
      await write(dir, name, existing);
    },
    { createParents: true, target: "file" },
  );
}

function changeOf(entry: PathEntry, existing: Stats | undefined, bytes: number, append: boolean): WriteChange {
  return {
    virtualPath: entry.virtualPath,
    bytes,
    existingBytes: existing?.isFile() === true ? existing.size : 0,
    append,
    created: existing === undefined,
    createdDirs: entry.createdDirs,
  };
}

async function lstatOrUndefined(entry: PathEntry, name: string): Promise<Stats | undefined> {
  try {
    return await entry.dir.lstat(name);
  } catch (err) {
    if (errnoOf(err) === "ENOENT") return undefined;
    throw err;
  }
}
