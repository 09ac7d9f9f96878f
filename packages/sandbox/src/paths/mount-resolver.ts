/**
 * Resolution of virtual paths inside mounts, by construction unable to leave
 * them. Lexical checks (`..`, prefixes) come from `virtual-paths.ts`; then the
 * path is walked one component at a time from the mount's root directory held
 * open ({@link DirHandle}), each component opened with `O_NOFOLLOW` relative
 * to the directory before it. No host path string below a mount root is ever
 * handed to the kernel, so a sandbox that swaps folders of its tree for
 * symlinks while the server works there cannot redirect the server anywhere:
 * every directory the walk holds is one it opened itself, inside the mount.
 *
 * Symlinks keep their documented meaning, resolved virtually: a link met on
 * the way (or as the target, when the operation follows it) is read, and its
 * target is walked from the link's own directory (relative), or from the
 * mount's root when it is absolute and names the mount (by its virtual path,
 * or by its host folder, as links made by host-mode commands do). A target
 * that climbs above the mount's root, names anything else, or more than 40
 * links in one resolution, is `PATH_ESCAPE`. Nothing is ever followed by the
 * kernel.
 */
import type { Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { SandboxError } from "../errors.js";
import type { Mount } from "../mount.js";
import { DirHandle, usingDir } from "./dir-handle.js";
import { errnoOf, notFoundError, toSandboxError, type FsTarget } from "./fs-errors.js";
import { isPathInside } from "@deerflow/kernel";
import {
  ESCAPE_MESSAGE,
  NOT_ALLOWED_MESSAGE,
  hostToVirtual,
  matchMount,
  normalizeVirtualPath,
} from "./virtual-paths.js";

/** Whether the caller will only read, or also write. */
export type AccessMode = "read" | "write";

/** Most symlinks followed (or names found changed and looked at again) in one resolution, as Linux's `MAXSYMLINKS`. */
const MAX_SYMLINK_HOPS = 40;
/** Longest virtual path accepted, as Linux's `PATH_MAX`: it also bounds how many folders one call creates. */
const MAX_PATH_BYTES = 4096;

/**
 * Where a resolved path ends: the directory holding it, held open, and its
 * name there. Valid only inside the callback that receives it.
 */
export interface PathEntry {
  /** The normalised virtual path that was asked for (use it in messages). */
  readonly virtualPath: string;
  /** The mount the path lies in. */
  readonly mount: Mount;
  /** The directory holding the target; the target itself when `name` is `undefined`. */
  readonly dir: DirHandle;
  /** The target's name in `dir`; `undefined` when the target is `dir` (a mount's root). */
  readonly name: string | undefined;
  /** Where the target really is, relative to the mount's root (links followed); `name` is the last one. */
  readonly segments: readonly string[];
  /** Folders this resolution created on the way (`createParents`). */
  readonly createdDirs: number;
}

/** Options of {@link MountResolver.withEntry}. */
export interface EntryOptions {
  /** Create missing directories on the way (`mkdir -p` for writes). Default false. */
  readonly createParents?: boolean;
  /** What a missing path is called in `NOT_FOUND` messages. Default `path`. */
  readonly target?: FsTarget;
}

/**
 * The signal an entry callback raises when the target's name holds a symlink
 * (what `open` with `O_NOFOLLOW` reports): the resolver then follows the link
 * virtually and calls the callback again on its target. Opening with
 * `O_NOFOLLOW` raises it by itself (`ELOOP`).
 *
 * @returns A Node-style `ELOOP` error.
 */
export function symlinkInTheWay(): NodeJS.ErrnoException {
  return Object.assign(new Error("the target is a symlink"), { code: "ELOOP" });
}

/**
 * Resolves virtual paths against a fixed list of mounts.
 *
 * @example
 * const resolver = new MountResolver(mounts);
 * const text = await resolver.withEntry("/mnt/user-data/workspace/a.txt", "read", async ({ dir, name }) => {
 *   const handle = await dir.openFile(name, fs.constants.O_RDONLY);
 *   try { return await handle.readFile("utf8"); } finally { await handle.close(); }
 * });
 */
export class MountResolver {
  /** The mounts, as given. */
  readonly mounts: readonly Mount[];
  readonly #realRoots = new Map<Mount, string>();

  /** @param mounts - The sandbox's mounts (absolute virtual and host paths). */
  constructor(mounts: readonly Mount[]) {
    this.mounts = mounts;
  }

  /**
   * Resolves a virtual path and runs `use` on where it ends, with every
   * directory on the way held open (and closed afterwards). `use` may be
   * called more than once: when it rejects with `ELOOP` (see
   * {@link symlinkInTheWay}) before changing anything, the symlink at the
   * target's name is followed and `use` runs again on the link's target.
   *
   * @param virtualPath - The path as the agent wrote it.
   * @param access - `write` also refuses read-only mounts, including a
   *   read-only mount's folder reached through a writable one.
   * @param use - The operation on the target.
   * @param options - Parent creation, message wording.
   * @returns What `use` returns.
   * @throws {@link SandboxError} `PATH_ESCAPE` (`..` segment, a link leaving the
   *   mount, too many links), `PATH_NOT_ALLOWED` (outside every mount), `READ_ONLY`
   *   (`Read-only file system: <path>`), `NOT_FOUND`, `NOT_A_DIRECTORY` (a parent is
   *   a file); whatever `use` throws, as a `SandboxError` for the virtual path.
   */
  async withEntry<T>(
    virtualPath: string,
    access: AccessMode,
    use: (entry: PathEntry) => Promise<T>,
    options: EntryOptions = {},
  ): Promise<T> {
    const normalized = normalizeVirtualPath(virtualPath);
    if (Buffer.byteLength(normalized) >= MAX_PATH_BYTES) {
      throw new SandboxError("INVALID_ARGUMENT", `File name too long: ${normalized.slice(0, 200)}...`, {
        path: normalized.slice(0, 200),
      });
    }
    const match = matchMount(this.mounts, normalized);
    if (match === undefined) throw new SandboxError("PATH_NOT_ALLOWED", NOT_ALLOWED_MESSAGE, { path: normalized });
    if (access === "write" && match.mount.readOnly) throw readOnlyError(normalized);
    const segments = match.relative === "" ? [] : match.relative.split("/");
    return this.withMountEntry(match.mount, segments, normalized, access, use, options);
  }

  /**
   * {@link MountResolver.withEntry} from components relative to a mount's
   * root, which may contain `..` (a symlink's target, found during a walk).
   *
   * @param mount - One of {@link MountResolver.mounts}.
   * @param segments - Components below the mount's root.
   * @param virtualPath - Names the path in errors.
   * @param access - As {@link MountResolver.withEntry}.
   * @param use - As {@link MountResolver.withEntry}.
   * @param options - As {@link MountResolver.withEntry}.
   * @returns What `use` returns.
   */
  async withMountEntry<T>(
    mount: Mount,
    segments: readonly string[],
    virtualPath: string,
    access: AccessMode,
    use: (entry: PathEntry) => Promise<T>,
    options: EntryOptions = {},
  ): Promise<T> {
    const target = options.target ?? "path";
    try {
      const readOnlyDirs = access === "write" ? await this.#readOnlyFoldersInside(mount) : new Set<string>();
      return await usingDir(this.openRoot(mount, virtualPath), (root) =>
        new Walk(this, mount, root, virtualPath, readOnlyDirs, options.createParents === true).run(segments, use),
      );
    } catch (err) {
      throw toSandboxError(err, virtualPath, target);
    }
  }

  /**
   * Opens a mount's root directory. Its host folder is opened by path, as
   * configured, unless it lies inside another mount's folder: then it is
   * walked to from that mount's root without following any symlink, so a
   * sandbox writing in the outer mount cannot swap it.
   *
   * @param mount - One of {@link MountResolver.mounts}.
   * @param virtualPath - The path to name if the root is missing.
   * @returns The root (one owner; the caller closes it).
   * @throws {@link SandboxError} `NOT_FOUND` when the folder does not exist.
   */
  async openRoot(mount: Mount, virtualPath: string = mount.virtualPath): Promise<DirHandle> {
    const container = this.#containerOf(mount);
    try {
      if (container === undefined) return await DirHandle.open(mount.hostPath);
      const names = path.relative(path.resolve(container.hostPath), path.resolve(mount.hostPath)).split(path.sep);
      let dir = await DirHandle.open(container.hostPath);
      for (const name of names) dir = await usingDir(dir, (parent) => parent.openDir(name));
      return dir;
    } catch (err) {
      if (errnoOf(err) === "ENOENT" || errnoOf(err) === "ENOTDIR") throw notFoundError(virtualPath, "path");
      throw toSandboxError(err, virtualPath);
    }
  }

  /**
   * The real host path of a mount's root (cached once it resolves). Only
   * for recognising host paths (command output, links made by host-mode
   * commands); never used to reach a file.
   *
   * @param mount - One of {@link MountResolver.mounts}.
   * @returns The realpath of `mount.hostPath`, or `undefined` when it does not resolve.
   */
  async realRoot(mount: Mount): Promise<string | undefined> {
    const cached = this.#realRoots.get(mount);
    if (cached !== undefined) return cached;
    const real = await fs.realpath(mount.hostPath).catch(() => undefined);
    if (real !== undefined) this.#realRoots.set(mount, real);
    return real;
  }

  /**
   * Maps a host path back to a virtual path, trying the mounts' configured
   * host paths and their real paths (longest root first).
   *
   * @param hostPath - An absolute host path.
   * @returns The virtual path, or `undefined` when no mount contains it.
   */
  toVirtual(hostPath: string): string | undefined {
    const candidates: Mount[] = [...this.mounts];
    for (const [mount, real] of this.#realRoots) candidates.push({ ...mount, hostPath: real });
    return hostToVirtual(candidates, hostPath);
  }

  /**
   * The components, below a mount's root, an absolute symlink target names:
   * the target inside the mount's virtual path or its host folder.
   *
   * @returns The components, or `undefined` when the target names neither.
   */
  async mountRelative(mount: Mount, target: string): Promise<string[] | undefined> {
    const parts = target.split("/").filter((p) => p !== "" && p !== ".");
    const real = await this.realRoot(mount);
    for (const root of [mount.virtualPath, path.resolve(mount.hostPath), ...(real === undefined ? [] : [real])]) {
      const prefix = root.split("/").filter((p) => p !== "");
      if (prefix.every((p, i) => parts[i] === p)) return parts.slice(prefix.length);
    }
    return undefined;
  }

  /** The outermost other mount whose host folder contains this one's (compared lexically). */
  #containerOf(mount: Mount): Mount | undefined {
    const own = path.resolve(mount.hostPath);
    let outer: Mount | undefined;
    for (const other of this.mounts) {
      const root = path.resolve(other.hostPath);
      if (other === mount || root === own || !isPathInside(own, root)) continue;
      if (outer === undefined || root.length < path.resolve(outer.hostPath).length) outer = other;
    }
    return outer;
  }

  /** Identities (`dev:ino`) of read-only mounts' folders that lie inside a writable mount's folder. */
  async #readOnlyFoldersInside(mount: Mount): Promise<Set<string>> {
    const own = path.resolve(mount.hostPath);
    const ids = new Set<string>();
    for (const other of this.mounts) {
      if (!other.readOnly || other === mount || !isPathInside(path.resolve(other.hostPath), own)) continue;
      try {
        ids.add(identity(await usingDir(this.openRoot(other), (dir) => dir.stat())));
      } catch {
        // Missing: nothing to protect.
      }
    }
    return ids;
  }
}

/** One resolution: the stack of directories from the mount's root down to the current one. */
class Walk {
  readonly #stack: { readonly dir: DirHandle; readonly name: string }[] = [];
  #hops = 0;
  /** mkdir attempts (bounded); {@link Walk.#created} counts the ones that made a folder. */
  #made = 0;
  #created = 0;

  constructor(
    private readonly resolver: MountResolver,
    private readonly mount: Mount,
    private readonly root: DirHandle,
    private readonly virtualPath: string,
    private readonly readOnlyDirs: ReadonlySet<string>,
    private readonly createParents: boolean,
  ) {}

  async run<T>(segments: readonly string[], use: (entry: PathEntry) => Promise<T>): Promise<T> {
    try {
      let pending = [...segments];
      for (;;) {
        const name = await this.#descend(pending);
        const entry: PathEntry = {
          virtualPath: this.virtualPath,
          mount: this.mount,
          dir: this.#top(),
          name,
          segments: [...this.#stack.map((f) => f.name), ...(name === undefined ? [] : [name])],
          createdDirs: this.#created,
        };
        try {
          return await use(entry);
        } catch (err) {
          if (name === undefined || errnoOf(err) !== "ELOOP") throw err;
          // The target is a symlink: walk on to where it points (or retry if it stopped being one).
          pending = (await this.#follow(name)) ?? [name];
        }
      }
    } finally {
      await Promise.all(this.#stack.map((frame) => frame.dir.close().catch(() => undefined)));
    }
  }

  #top(): DirHandle {
    return this.#stack.at(-1)?.dir ?? this.root;
  }

  /**
   * Walks every component but the last, which it returns (`undefined` when
   * the path ends at a directory: the root, or a `.`/`..` from a link).
   */
  async #descend(components: string[]): Promise<string | undefined> {
    const pending = [...components];
    while (pending.length > 0) {
      const name = pending.shift() as string;
      if (name === "" || name === ".") continue;
      if (name === "..") {
        const frame = this.#stack.pop();
        if (frame === undefined) throw escapeError(this.virtualPath);
        await frame.dir.close();
        continue;
      }
      if (pending.every((rest) => rest === "" || rest === ".")) return name;
      const next = await this.#openDir(name);
      if (Array.isArray(next)) pending.unshift(...next);
      else if (next !== undefined) this.#stack.push({ dir: next, name });
      else pending.unshift(name);
    }
    return undefined;
  }

  /**
   * Opens one directory of the path below the current one. Returns the
   * handle; or a link's components to walk instead; or `undefined` to try the
   * same name again (it changed under us).
   */
  async #openDir(name: string): Promise<DirHandle | string[] | undefined> {
    const parent = this.#top();
    let dir: DirHandle;
    try {
      dir = await parent.openDir(name);
    } catch (err) {
      const code = errnoOf(err);
      if (code === "ENOENT" && this.createParents) {
        // EEXIST: made meanwhile by a concurrent call (or swapped in): look again, within the hop budget.
        // At most one folder per component a path can have; more means it keeps being removed under us.
        this.#made += 1;
        if (this.#made > MAX_PATH_BYTES / 2) throw escapeError(this.virtualPath);
        await parent.mkdir(name).then(
          () => {
            this.#created += 1;
          },
          (mkdirErr: unknown) => {
            if (errnoOf(mkdirErr) !== "EEXIST") throw mkdirErr;
            this.#countHop();
          },
        );
        return undefined;
      }
      if (code !== "ENOTDIR") throw err;
      const stats = await parent.lstat(name).catch(() => undefined);
      if (stats?.isSymbolicLink() === true) return this.#follow(name);
      if (stats !== undefined && !stats.isDirectory()) throw err;
      // A folder again (swapped back), or gone: look again.
      this.#countHop();
      return undefined;
    }
    if (this.readOnlyDirs.size > 0 && this.readOnlyDirs.has(identity(await dir.stat()))) {
      await dir.close();
      throw readOnlyError(this.virtualPath);
    }
    return dir;
  }

  /**
   * Reads the link `name` of the current directory and returns the
   * components to walk in its place (an absolute target restarts at the
   * mount's root), or `undefined` when `name` is no longer a link.
   */
  async #follow(name: string): Promise<string[] | undefined> {
    this.#countHop();
    let target: string;
    try {
      target = await this.#top().readlink(name);
    } catch (err) {
      // EINVAL: no longer a link; ENOENT: gone. Either way, look again.
      if (errnoOf(err) === "EINVAL" || errnoOf(err) === "ENOENT") return undefined;
      throw err;
    }
    if (!target.startsWith("/")) return target.split("/");
    const inMount = await this.resolver.mountRelative(this.mount, target);
    if (inMount === undefined) throw escapeError(this.virtualPath);
    await Promise.all(this.#stack.splice(0).map((frame) => frame.dir.close()));
    return inMount;
  }

  #countHop(): void {
    this.#hops += 1;
    if (this.#hops > MAX_SYMLINK_HOPS) throw escapeError(this.virtualPath);
  }
}

function identity(stats: Stats): string {
  return `${stats.dev}:${stats.ino}`;
}

function escapeError(virtualPath: string): SandboxError {
  return new SandboxError("PATH_ESCAPE", ESCAPE_MESSAGE, { path: virtualPath });
}

/** The READ_ONLY error for a virtual path. */
function readOnlyError(virtualPath: string): SandboxError {
  return new SandboxError("READ_ONLY", `Read-only file system: ${virtualPath}`, { path: virtualPath });
}
