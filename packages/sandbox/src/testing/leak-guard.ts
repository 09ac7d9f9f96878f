/**
 * Wraps a sandbox so that every result and every error is checked for host
 * paths of the sandbox root. A leak fails the call with an error that names
 * the method, never the path: the kit's own failure messages must not leak
 * what it is guarding.
 */
import type {
  ExecuteOptions,
  GlobOptions,
  GrepOptions,
  ReadFileOptions,
  Sandbox,
  WriteFileOptions,
} from "../sandbox.js";

/** Thrown (by the wrapped sandbox) when a result or error contains a host root. */
class HostPathLeak extends Error {
  constructor(what: string) {
    super(`${what} contains a host path of the sandbox root (path withheld)`);
    this.name = "HostPathLeak";
  }
}

/**
 * True when `text` contains one of `roots`.
 *
 * @param text - Output, message or listing to check.
 * @param roots - Host directories that must stay hidden.
 * @returns Whether any root occurs in the text.
 */
function containsHostRoot(text: string, roots: readonly string[]): boolean {
  return roots.some((root) => text.includes(root));
}

/**
 * Returns `sandbox` unchanged when there is nothing to guard, else a wrapper
 * that checks every result and rejection against `roots`.
 *
 * @param sandbox - The implementation under test.
 * @param roots - Host directories behind it.
 * @returns A sandbox with the same behaviour that throws {@link HostPathLeak} on a leak.
 */
export function guardHostPaths(sandbox: Sandbox, roots: readonly string[]): Sandbox {
  if (roots.length === 0) return sandbox;
  const check = (what: string, texts: readonly string[]): void => {
    if (texts.some((t) => containsHostRoot(t, roots))) throw new HostPathLeak(what);
  };
  const call = async <T>(what: string, run: () => Promise<T>, texts: (value: T) => readonly string[]): Promise<T> => {
    let value: T;
    try {
      value = await run();
    } catch (err) {
      // The message and `path` reach agents; a `cause` (a Node fs error with the host path) does not.
      const parts =
        err instanceof Error ? [err.message, String((err as { path?: unknown }).path ?? "")] : [String(err)];
      check(`the error of ${what}`, parts);
      throw err;
    }
    check(`the result of ${what}`, texts(value));
    return value;
  };
  return {
    get id() {
      check("sandbox.id", [sandbox.id]);
      return sandbox.id;
    },
    execute: (command: string, options?: ExecuteOptions) =>
      call(
        "execute",
        () => sandbox.execute(command, options),
        (r) => [r.stdout, r.stderr],
      ),
    readFile: (path: string, options?: ReadFileOptions) =>
      call(
        "readFile",
        () => sandbox.readFile(path, options),
        (r) => [r],
      ),
    // Bytes are checked as latin1 so that any byte sequence spelling a root is found.
    readBytes: (path: string) =>
      call(
        "readBytes",
        () => sandbox.readBytes(path),
        (r) => [Buffer.from(r.buffer, r.byteOffset, r.byteLength).toString("latin1")],
      ),
    writeFile: (path: string, content: string, options?: WriteFileOptions) =>
      call(
        "writeFile",
        () => sandbox.writeFile(path, content, options),
        () => [],
      ),
    writeBytes: (path: string, data: Uint8Array) =>
      call(
        "writeBytes",
        () => sandbox.writeBytes(path, data),
        () => [],
      ),
    listDir: (path: string, options?: { readonly maxDepth?: number }) =>
      call(
        "listDir",
        () => sandbox.listDir(path, options),
        (r) => r,
      ),
    glob: (path: string, pattern: string, options?: GlobOptions) =>
      call(
        "glob",
        () => sandbox.glob(path, pattern, options),
        (r) => r.matches,
      ),
    grep: (path: string, pattern: string, options?: GrepOptions) =>
      call(
        "grep",
        () => sandbox.grep(path, pattern, options),
        (r) => r.matches.flatMap((m) => [m.path, m.text]),
      ),
  };
}
