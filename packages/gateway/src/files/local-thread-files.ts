/**
 * {@link ThreadFiles} on the local disk, in the layout of `@deerflow/sandbox`'s
 * `LocalSandboxProvider`, so that what the agent writes is what the routes serve:
 * `<root>/users/<userId>/threads/<threadId>/user-data/{workspace,uploads,outputs}`.
 */
import { constants, promises as fs } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { GatewayError } from "../errors.js";
import { isPathInside } from "@deerflow/kernel";
import { threadUserDataDir } from "@deerflow/sandbox";
import { errnoOf, isMissing, resolveContained } from "./contained-path.js";
import { LocalUploadBatch } from "./local-upload-batch.js";
import type {
  ByteRange,
  OpenedThreadFile,
  ThreadFileInfo,
  ThreadFiles,
  ThreadScope,
  UploadBatch,
} from "./thread-files.js";
import { TRAVERSAL_MESSAGE, virtualPathOf, type UserDataArea, type UserDataPath } from "./virtual-path.js";

/** Options of {@link LocalThreadFiles}. */
export interface LocalThreadFilesOptions {
  /** The sandbox provider's `baseDir` (folders are created on first upload). */
  readonly root: string;
  /** Most files one listing returns (deeper or later files are left out). Default 10,000. */
  readonly maxListEntries?: number;
  /** Deepest subfolder level a recursive listing descends into. Default 16. */
  readonly maxListDepth?: number;
}

const ID_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
// O_NONBLOCK: opening a FIFO an agent planted must not hang the server.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function checkId(kind: string, value: string): string {
  if (!ID_PATTERN.test(value) || value === "." || value === "..")
    throw new GatewayError("BAD_REQUEST", `Invalid ${kind} id`);
  return value;
}

/** Wraps a checked handle: one read (ranged or whole), or a close. */
function openedFile(handle: fs.FileHandle, size: number, modified: Date, name: string): OpenedThreadFile {
  let stream: Readable | undefined;
  let closed = false;
  return {
    size,
    modified,
    name,
    read(range?: ByteRange): Readable {
      if (stream !== undefined || closed) throw new Error("thread file already read or closed");
      stream = handle.createReadStream({
        autoClose: true,
        ...(range === undefined ? {} : { start: range.start, end: range.end }),
      });
      return stream;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      if (stream === undefined) await handle.close();
      else stream.destroy();
    },
  };
}

function notFound(virtualPath: string): () => GatewayError {
  return () => new GatewayError("FILE_NOT_FOUND", `File not found: ${virtualPath}`);
}

/**
 * Thread files under a local root.
 *
 * Reads resolve every symlink and refuse anything that leaves the thread's
 * `user-data` folder (403), re-checking after opening that the opened file is
 * still the one checked; only regular files are served. Uploads are staged
 * and renamed into place (see `LocalUploadBatch`), with mode 0644.
 *
 * @example
 * ```ts
 * const files = new LocalThreadFiles({ root: "/var/lib/deerflow" }); // same baseDir as LocalSandboxProvider
 * const outputs = await files.list({ userId: "default", threadId: "t1" }, "outputs", { recursive: true });
 * ```
 */
export class LocalThreadFiles implements ThreadFiles {
  /** The absolute root. */
  readonly root: string;
  readonly #maxEntries: number;
  readonly #maxDepth: number;

  /** @param options - root and listing caps. */
  constructor(options: LocalThreadFilesOptions) {
    this.root = path.resolve(options.root);
    this.#maxEntries = options.maxListEntries ?? 10_000;
    this.#maxDepth = options.maxListDepth ?? 16;
  }

  /**
   * @param scope - the thread.
   * @returns the host folder of the thread's `/mnt/user-data` (not created).
   * @throws GatewayError `BAD_REQUEST` for ids that are not folder-safe.
   */
  userDataDir(scope: ThreadScope): string {
    return threadUserDataDir(this.root, {
      userId: checkId("user", scope.userId),
      threadId: checkId("thread", scope.threadId),
    });
  }

  async list(
    scope: ThreadScope,
    area: UserDataArea,
    options: { readonly recursive?: boolean } = {},
  ): Promise<ThreadFileInfo[]> {
    const userData = this.userDataDir(scope);
    const dir = path.join(userData, area);
    let realDir: string;
    try {
      realDir = await resolveContained(userData, dir, notFound(area));
    } catch (err) {
      if (GatewayError.isInstance(err) && err.code === "FILE_NOT_FOUND") return [];
      throw err;
    }
    const out: ThreadFileInfo[] = [];
    await this.#walk(realDir, "", area, options.recursive === true ? this.#maxDepth : 0, out);
    return out.sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
  }

  async #walk(dir: string, prefix: string, area: UserDataArea, depth: number, out: ThreadFileInfo[]): Promise<void> {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (out.length >= this.#maxEntries) return;
      // Hidden files include staged uploads; symlinks are never followed by a listing.
      if (entry.name.startsWith(".") || entry.isSymbolicLink()) continue;
      const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth > 0) await this.#walk(full, rel, area, depth - 1, out);
      } else if (entry.isFile()) {
        const st = await fs.lstat(full).catch((err: unknown) => (isMissing(err) ? undefined : Promise.reject(err)));
        if (st?.isFile())
          out.push({ filename: rel, size: st.size, path: virtualPathOf(area, rel), modified: st.mtimeMs / 1000 });
      }
    }
  }

  async open(scope: ThreadScope, target: UserDataPath): Promise<OpenedThreadFile> {
    const userData = this.userDataDir(scope);
    const vpath = target.virtualPath;
    if (target.top === undefined) throw new GatewayError("NOT_A_FILE", `Path is not a file: ${vpath}`);
    if (target.area === undefined) throw notFound(vpath)();
    const host = path.join(userData, target.area, ...target.segments);
    const real = await resolveContained(userData, host, notFound(vpath));
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(real, OPEN_FLAGS);
    } catch (err) {
      if (isMissing(err)) throw notFound(vpath)();
      if (errnoOf(err) === "ELOOP") throw new GatewayError("PATH_TRAVERSAL", TRAVERSAL_MESSAGE);
      if (errnoOf(err) === "EISDIR") throw new GatewayError("NOT_A_FILE", `Path is not a file: ${vpath}`);
      throw err;
    }
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw new GatewayError("NOT_A_FILE", `Path is not a file: ${vpath}`);
      // A folder on the checked path may have been swapped for a symlink since the check.
      const again = await fs.realpath(real).catch(() => undefined);
      const now = again === undefined ? undefined : await fs.stat(again).catch(() => undefined);
      const realBase = await fs.realpath(userData);
      if (
        again === undefined ||
        now === undefined ||
        again !== real ||
        !isPathInside(again, realBase) ||
        now.ino !== st.ino ||
        now.dev !== st.dev
      ) {
        throw new GatewayError("PATH_TRAVERSAL", TRAVERSAL_MESSAGE);
      }
      return openedFile(handle, st.size, st.mtime, path.basename(real));
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async beginUpload(scope: ThreadScope): Promise<UploadBatch> {
    const userData = this.userDataDir(scope);
    const dir = path.join(userData, "uploads");
    await fs.mkdir(dir, { recursive: true });
    const real = await resolveContained(userData, dir, notFound("/mnt/user-data/uploads"));
    return new LocalUploadBatch(real);
  }

  async deleteUpload(scope: ThreadScope, filename: string): Promise<void> {
    const userData = this.userDataDir(scope);
    const dir = path.join(userData, "uploads");
    const vpath = virtualPathOf("uploads", filename);
    const realDir = await resolveContained(userData, dir, notFound(vpath));
    const target = path.join(realDir, filename);
    const st = await fs.lstat(target).catch((err: unknown) => (isMissing(err) ? undefined : Promise.reject(err)));
    if (st === undefined) throw notFound(vpath)();
    if (st.isDirectory()) throw new GatewayError("NOT_A_FILE", `Path is not a file: ${vpath}`);
    // unlink removes a symlink itself, never its target.
    await fs
      .unlink(target)
      .catch((err: unknown) => (isMissing(err) ? Promise.reject(notFound(vpath)()) : Promise.reject(err)));
  }
}
