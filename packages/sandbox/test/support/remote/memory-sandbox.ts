/**
 * A small in-memory {@link Sandbox} and provider for the remote package's
 * unit tests: enough path rules to produce every error code the wire maps,
 * and a scriptable `execute`.
 */
import { SandboxError } from "../../../src/errors.js";
import type { SandboxProvider } from "../../../src/provider.js";
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

/** Scripted command behaviour. */
export type ExecuteHandler = (command: string, options: ExecuteOptions) => Promise<ExecuteResult>;

/** A successful result with the given stdout. */
export function okResult(stdout: string, extra: Partial<ExecuteResult> = {}): ExecuteResult {
  return { stdout, stderr: "", exitCode: 0, signal: null, timedOut: false, truncated: false, ...extra };
}

const echo: ExecuteHandler = async (command) => okResult(`${command}\n`);

/** In-memory sandbox rooted at `/mnt/user-data`; `/mnt/skills` is read-only. */
export class MemorySandbox implements Sandbox {
  readonly files = new Map<string, Uint8Array>();
  /** Every `execute` call's options, for assertions. */
  readonly executions: { command: string; options: ExecuteOptions }[] = [];
  executeHandler: ExecuteHandler = echo;

  constructor(readonly id: string) {}

  #check(path: string, write = false): string {
    if (path.split("/").includes(".."))
      throw new SandboxError("PATH_ESCAPE", "Access denied: path traversal detected", { path });
    if (write && path.startsWith("/mnt/skills/"))
      throw new SandboxError("READ_ONLY", "Read-only file system", { path });
    if (!path.startsWith("/mnt/user-data/") && !path.startsWith("/mnt/skills/")) {
      throw new SandboxError("PATH_NOT_ALLOWED", "Only paths under /mnt/user-data/ are allowed", { path });
    }
    return path;
  }

  #get(path: string): Uint8Array {
    const bytes = this.files.get(this.#check(path));
    if (bytes === undefined) throw new SandboxError("NOT_FOUND", `File not found: ${path}`, { path });
    return bytes;
  }

  async execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    if (options.env !== undefined) {
      for (const name of Object.keys(options.env)) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
          throw new SandboxError("INVALID_ARGUMENT", `Invalid environment variable name: ${name}`);
      }
    }
    this.executions.push({ command, options });
    return this.executeHandler(command, options);
  }

  async readFile(path: string, options: ReadFileOptions = {}): Promise<string> {
    const text = Buffer.from(this.#get(path)).toString("utf8");
    if (options.startLine === undefined && options.endLine === undefined) return text;
    if ((options.startLine ?? 1) < 1) throw new SandboxError("INVALID_ARGUMENT", "start_line must be >= 1");
    const lines = text.split("\n");
    return lines.slice((options.startLine ?? 1) - 1, options.endLine ?? lines.length).join("\n");
  }

  async readBytes(path: string): Promise<Uint8Array> {
    return this.#get(path);
  }

  async writeFile(path: string, content: string, options: WriteFileOptions = {}): Promise<void> {
    const previous = options.append === true ? (this.files.get(path) ?? new Uint8Array()) : new Uint8Array();
    this.files.set(this.#check(path, true), Buffer.concat([previous, Buffer.from(content, "utf8")]));
  }

  async writeBytes(path: string, data: Uint8Array): Promise<void> {
    this.files.set(this.#check(path, true), new Uint8Array(data));
  }

  async listDir(path: string, options: { readonly maxDepth?: number } = {}): Promise<readonly string[]> {
    const root = this.#check(path).replace(/\/$/, "");
    const depth = options.maxDepth ?? 2;
    const out = new Set<string>();
    for (const file of this.files.keys()) {
      if (!file.startsWith(`${root}/`)) continue;
      const parts = file.slice(root.length + 1).split("/");
      for (let i = 1; i <= Math.min(parts.length, depth); i++) {
        out.add(`${root}/${parts.slice(0, i).join("/")}${i < parts.length ? "/" : ""}`);
      }
    }
    if (out.size === 0 && ![...this.files.keys()].some((f) => f.startsWith(`${root}/`))) {
      throw new SandboxError("NOT_FOUND", `Directory not found: ${path}`, { path });
    }
    return [...out].sort();
  }

  async glob(path: string, pattern: string, options: GlobOptions = {}): Promise<SearchResult<string>> {
    const suffix = pattern.replace(/^(\*\*\/)?\*/, "");
    const all = [...this.files.keys()]
      .filter((f) => f.startsWith(`${this.#check(path)}/`) && f.endsWith(suffix))
      .sort();
    const max = options.maxResults ?? 200;
    return { matches: all.slice(0, max), truncated: all.length > max };
  }

  async grep(path: string, pattern: string, options: GrepOptions = {}): Promise<SearchResult<GrepMatch>> {
    let regex: RegExp;
    try {
      const source = options.literal === true ? pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pattern;
      regex = new RegExp(source, options.caseSensitive === true ? "" : "i");
    } catch {
      throw new SandboxError("INVALID_ARGUMENT", `Invalid regex pattern: ${pattern}`);
    }
    const matches: GrepMatch[] = [];
    for (const [file, bytes] of [...this.files].sort(([a], [b]) => a.localeCompare(b))) {
      if (!file.startsWith(`${this.#check(path)}/`)) continue;
      Buffer.from(bytes)
        .toString("utf8")
        .split("\n")
        .forEach((text, i) => {
          if (regex.test(text)) matches.push({ path: file, line: i + 1, text });
        });
    }
    const max = options.maxResults ?? 100;
    return { matches: matches.slice(0, max), truncated: matches.length > max };
  }
}

/** Hands out one {@link MemorySandbox} per (user, thread) and records releases. */
export class MemorySandboxProvider implements SandboxProvider {
  readonly sandboxes = new Map<string, MemorySandbox>();
  readonly released: string[] = [];
  shutdownCalls = 0;

  async acquire(threadId: string, userId = "default"): Promise<MemorySandbox> {
    const id = `mem:${userId}:${threadId}`;
    let sandbox = this.sandboxes.get(id);
    if (sandbox === undefined) {
      sandbox = new MemorySandbox(id);
      this.sandboxes.set(id, sandbox);
    }
    return sandbox;
  }

  get(id: string): MemorySandbox | undefined {
    return this.sandboxes.get(id);
  }

  async release(id: string): Promise<void> {
    this.released.push(id);
  }

  async shutdown(): Promise<void> {
    this.shutdownCalls++;
  }
}
