/**
 * Test-only in-memory {@link Sandbox}: a Map of virtual paths to bytes, with
 * just enough listing, glob and grep semantics for the tool tests. Every
 * operation yields to the event loop between its read and its write so that
 * unserialised read-modify-write races really lose updates. Not exported.
 */
import { SandboxError, type SandboxErrorCode } from "../../../src/errors.js";
import type { Mount } from "../../../src/mount.js";
import type {
  ExecuteOptions,
  ExecuteResult,
  GlobOptions,
  GrepMatch,
  GrepOptions,
  ReadFileOptions,
  Sandbox,
  SearchResult,
  WriteFileOptions,
} from "../../../src/sandbox.js";

/** Options of {@link MemorySandbox}. */
export interface MemorySandboxOptions {
  readonly id?: string;
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  readonly dirs?: readonly string[];
  /** Exposed as `sandbox.isolated` when given (the tools read it with `in`). */
  readonly isolated?: boolean;
  /** Exposed as `sandbox.mounts` when given. */
  readonly mounts?: readonly Mount[];
  /** What `execute` returns. Default: empty output, exit 0. */
  readonly onExecute?: (
    command: string,
    options: ExecuteOptions | undefined,
  ) => Partial<ExecuteResult> | Promise<Partial<ExecuteResult>>;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function fail(code: SandboxErrorCode, message: string, path: string): never {
  throw new SandboxError(code, message, { path });
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

/** `**` crosses directories, `*` and `?` do not. */
function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (ch === "*") source += "[^/]*";
    else if (ch === "?") source += "[^/]";
    else source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** A faithful-enough in-memory sandbox for the tool tests. */
export class MemorySandbox implements Sandbox {
  readonly id: string;
  readonly files = new Map<string, Uint8Array>();
  readonly dirs = new Set<string>([
    "/mnt/user-data",
    "/mnt/user-data/workspace",
    "/mnt/user-data/uploads",
    "/mnt/user-data/outputs",
  ]);
  /** Every execute call, for assertions. */
  readonly executions: Array<{ command: string; options: ExecuteOptions | undefined }> = [];
  /** Errors to throw from the next call of a method. */
  readonly failNext = new Map<keyof Sandbox, unknown>();
  /** Number of calls per method. */
  readonly calls = new Map<string, number>();
  readonly #onExecute: MemorySandboxOptions["onExecute"];

  constructor(options: MemorySandboxOptions = {}) {
    this.id = options.id ?? "memory:test";
    for (const dir of options.dirs ?? []) this.dirs.add(dir);
    for (const [path, content] of Object.entries(options.files ?? {})) this.setFile(path, content);
    if (options.isolated !== undefined)
      Object.defineProperty(this, "isolated", { value: options.isolated, enumerable: true });
    if (options.mounts !== undefined)
      Object.defineProperty(this, "mounts", { value: options.mounts, enumerable: true });
    this.#onExecute = options.onExecute;
  }

  /** Stores a file (and its parent directories) without going through the tools. */
  setFile(path: string, content: string | Uint8Array): void {
    this.files.set(path, typeof content === "string" ? new TextEncoder().encode(content) : content);
    for (let dir = parentOf(path); dir !== "/"; dir = parentOf(dir)) this.dirs.add(dir);
  }

  /** A stored file as text. */
  text(path: string): string | undefined {
    const bytes = this.files.get(path);
    return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  }

  #enter(method: keyof Sandbox): void {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    if (this.failNext.has(method)) {
      const err = this.failNext.get(method);
      this.failNext.delete(method);
      throw err;
    }
  }

  #isDir(path: string): boolean {
    return this.dirs.has(path);
  }

  #readOnly(path: string): boolean {
    const mounts = (this as { mounts?: readonly Mount[] }).mounts ?? [];
    const best = mounts
      .filter((m) => path === m.virtualPath || path.startsWith(`${m.virtualPath}/`))
      .sort((a, b) => b.virtualPath.length - a.virtualPath.length)[0];
    return path.startsWith("/mnt/skills/") || best?.readOnly === true;
  }

  #bytes(path: string): Uint8Array {
    if (this.#isDir(path)) fail("IS_A_DIRECTORY", `Is a directory: ${path}`, path);
    const bytes = this.files.get(path);
    if (bytes === undefined) {
      if (this.files.has(parentOf(path))) fail("NOT_A_DIRECTORY", `Not a directory: ${path}`, path);
      fail("NOT_FOUND", `No such file: ${path}`, path);
    }
    return bytes;
  }

  async execute(command: string, options?: ExecuteOptions): Promise<ExecuteResult> {
    this.#enter("execute");
    this.executions.push({ command, options });
    await tick();
    const partial = (await this.#onExecute?.(command, options)) ?? {};
    return { stdout: "", stderr: "", exitCode: 0, signal: null, timedOut: false, truncated: false, ...partial };
  }

  async readFile(path: string, options?: ReadFileOptions): Promise<string> {
    this.#enter("readFile");
    await tick();
    const text = new TextDecoder().decode(this.#bytes(path));
    if (options?.startLine === undefined && options?.endLine === undefined) return text;
    const lines = text.split("\n");
    if (text.endsWith("\n")) lines.pop();
    return lines.slice((options.startLine ?? 1) - 1, options.endLine ?? lines.length).join("\n");
  }

  async readBytes(path: string): Promise<Uint8Array> {
    this.#enter("readBytes");
    await tick();
    return this.#bytes(path);
  }

  async writeFile(path: string, content: string, options?: WriteFileOptions): Promise<void> {
    this.#enter("writeFile");
    const previous = options?.append === true && this.files.has(path) ? this.text(path) : "";
    await tick();
    this.#writeChecks(path);
    this.setFile(path, (previous ?? "") + content);
  }

  async writeBytes(path: string, data: Uint8Array): Promise<void> {
    this.#enter("writeBytes");
    await tick();
    this.#writeChecks(path);
    this.setFile(path, data);
  }

  #writeChecks(path: string): void {
    if (this.#readOnly(path)) fail("READ_ONLY", "Read-only file system", path);
    if (this.#isDir(path)) fail("IS_A_DIRECTORY", `Is a directory: ${path}`, path);
    if (this.files.has(parentOf(path))) fail("NOT_A_DIRECTORY", `Not a directory: ${parentOf(path)}`, path);
  }

  /** Files and directories strictly under `root`, as virtual paths. */
  #descendants(root: string): Array<{ path: string; dir: boolean }> {
    const prefix = root === "/" ? "/" : `${root}/`;
    const out = [...this.dirs].filter((d) => d.startsWith(prefix)).map((path) => ({ path, dir: true }));
    for (const path of this.files.keys()) if (path.startsWith(prefix)) out.push({ path, dir: false });
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  #requireDir(path: string): void {
    if (this.files.has(path)) fail("NOT_A_DIRECTORY", `Not a directory: ${path}`, path);
    if (!this.#isDir(path)) fail("NOT_FOUND", `No such directory: ${path}`, path);
  }

  async listDir(path: string, options?: { readonly maxDepth?: number }): Promise<readonly string[]> {
    this.#enter("listDir");
    await tick();
    this.#requireDir(path);
    const depth = options?.maxDepth ?? 2;
    const base = path.split("/").length;
    return this.#descendants(path)
      .filter((e) => e.path.split("/").length - base <= depth)
      .map((e) => (e.dir ? `${e.path}/` : e.path));
  }

  async glob(path: string, pattern: string, options?: GlobOptions): Promise<SearchResult<string>> {
    this.#enter("glob");
    await tick();
    this.#requireDir(path);
    const re = globToRegExp(pattern);
    const max = options?.maxResults ?? 200;
    const all = this.#descendants(path)
      .filter((e) => (options?.includeDirs === true || !e.dir) && re.test(e.path.slice(path.length + 1)))
      .map((e) => e.path);
    return { matches: all.slice(0, max), truncated: all.length > max };
  }

  async grep(path: string, pattern: string, options?: GrepOptions): Promise<SearchResult<GrepMatch>> {
    this.#enter("grep");
    await tick();
    const source = options?.literal === true ? pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pattern;
    let re: RegExp;
    try {
      re = new RegExp(source, options?.caseSensitive === true ? "" : "i");
    } catch (err) {
      fail("INVALID_ARGUMENT", `Invalid regex pattern: ${(err as Error).message}`, path);
    }
    const files = this.files.has(path)
      ? [path]
      : (this.#requireDir(path),
        this.#descendants(path)
          .filter((e) => !e.dir)
          .map((e) => e.path));
    const fileRe = options?.glob !== undefined ? globToRegExp(options.glob) : undefined;
    const max = options?.maxResults ?? 100;
    const matches: GrepMatch[] = [];
    for (const file of files) {
      if (fileRe !== undefined && !fileRe.test(file.slice(path.length + 1))) continue;
      (this.text(file) ?? "").split("\n").forEach((line, i) => {
        if (re.test(line)) matches.push({ path: file, line: i + 1, text: line.slice(0, 200) });
      });
    }
    return { matches: matches.slice(0, max), truncated: matches.length > max };
  }
}
