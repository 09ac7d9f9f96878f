/**
 * Virtual ↔ host path rewriting for commands that run on the host.
 *
 * Forward (command): a virtual path counts only where a shell word or
 * assignment value can start — at the beginning, after whitespace, a quote,
 * `=`, `:`, `(`, `{`, `,`, a backtick or a shell operator — and only when it
 * ends at a segment boundary, so `/mnt/user-data/workspace-extra` is never
 * taken for `/mnt/user-data/workspace`. The longest mount wins. The host path
 * is escaped for the quoting context it lands in.
 *
 * Backward (output): every occurrence of a mounted host path that ends at a
 * segment boundary becomes its virtual path; an occurrence that continues into
 * a sibling name (`<host ws>-old/...`) cannot be mapped and is replaced by
 * {@link HIDDEN_HOST_PATH}, so neither the host path nor a misleading virtual
 * path reaches the agent. Output matching needs no start boundary: masking
 * too much is harmless, leaking is not.
 */
import path from "node:path";

/** One virtual prefix and the host directory behind it. */
export interface PathMapping {
  /** Absolute virtual path, no trailing slash. */
  readonly virtualPath: string;
  /** Absolute host path, no trailing slash. */
  readonly hostPath: string;
}

/** What replaces a host path that has no virtual equivalent. */
export const HIDDEN_HOST_PATH = "[host path hidden]";

/** Characters after which a virtual path may start in a command. */
const COMMAND_START = new Set([..." \t\n\r\f\v'\"`=:({,;&|<>"]);
/** Characters at which a virtual path in a command ends (besides `/` and the end). */
const COMMAND_END = new Set([..." \t\n\r\f\v'\"`;&|<>(){},:"]);
/** Characters that end a path token in output. */
const OUTPUT_TOKEN_END = /[\s"'`;&|<>(){},:]/u;
/** Characters that continue a file name (so a host path followed by one is a sibling). */
const NAME_CHAR = /[\p{L}\p{N}\p{M}_.-]/u;
/** Characters that need no escaping in an unquoted shell word. */
const SHELL_SAFE = /^[A-Za-z0-9_./+@%,:=-]$/;

type QuoteState = "none" | "single" | "double" | "ansi";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function trimSlash(p: string): string {
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}

/** Escapes `text` so the shell reads it literally inside the given quoting. */
function escapeForShell(text: string, state: QuoteState): string {
  switch (state) {
    case "single":
      return text.replaceAll("'", "'\\''");
    case "double":
      return text.replace(/["$`\\]/g, "\\$&");
    case "ansi":
      return text.replace(/['\\]/g, "\\$&");
    case "none":
      return [...text].map((ch) => (SHELL_SAFE.test(ch) ? ch : `\\${ch}`)).join("");
  }
}

/** True when a host path ending at `index` is not followed by more of a file name. */
function endsAtOutputBoundary(text: string, index: number): boolean {
  const next = text[index];
  if (next === undefined || next === "/") return true;
  if (next === ".") {
    // Trailing dots are punctuation ("saved to /x/ws."), unless a name follows.
    let end = index;
    while (text[end] === ".") end += 1;
    const after = text[end];
    return after === undefined || (after !== "/" && !NAME_CHAR.test(after));
  }
  return !NAME_CHAR.test(next);
}

/**
 * Rewrites paths between the virtual and the host view of a set of mounts.
 *
 * @example
 * ```ts
 * const rw = new PathRewriter([{ virtualPath: "/mnt/user-data/workspace", hostPath: "/srv/t1/ws" }]);
 * rw.toHostCommand("cat '/mnt/user-data/workspace/a b.txt'"); // "cat '/srv/t1/ws/a b.txt'"
 * rw.toVirtualText("/srv/t1/ws/a.txt: ok");                  // "/mnt/user-data/workspace/a.txt: ok"
 * ```
 */
export class PathRewriter {
  /** Virtual prefix → host prefix (first mapping of a virtual path wins). */
  readonly #forward = new Map<string, string>();
  /** Host prefixes (aliases included), longest first, with their virtual paths. */
  readonly #reverse: readonly PathMapping[];
  readonly #outputPattern: RegExp | undefined;

  /**
   * @param mappings - mounts, optionally with extra host spellings of the same
   *   directory (e.g. its `realpath`) as additional entries. Host paths equal
   *   to `/` are ignored for output masking.
   */
  constructor(mappings: readonly PathMapping[]) {
    const normalized = mappings.map((m) => ({
      virtualPath: trimSlash(m.virtualPath),
      hostPath: trimSlash(m.hostPath),
    }));
    for (const m of normalized) if (!this.#forward.has(m.virtualPath)) this.#forward.set(m.virtualPath, m.hostPath);
    this.#reverse = normalized
      .filter((m) => m.hostPath !== "/" && m.hostPath !== "")
      .sort((a, b) => b.hostPath.length - a.hostPath.length);

    this.#outputPattern =
      this.#reverse.length === 0
        ? undefined
        : new RegExp([...new Set(this.#reverse.map((m) => escapeRegExp(m.hostPath)))].join("|"), "g");
  }

  /**
   * Maps one virtual path to its host path.
   *
   * @param virtualPath - an absolute virtual path (normalized first).
   * @returns the host path, or `undefined` when no mount covers it. `..`
   *   segments are resolved before matching, so they cannot climb out.
   */
  toHostPath(virtualPath: string): string | undefined {
    const p = path.posix.normalize(virtualPath);
    let best: string | undefined;
    for (const v of this.#forward.keys()) {
      if ((p === v || p.startsWith(v === "/" ? "/" : `${v}/`)) && (best === undefined || v.length > best.length))
        best = v;
    }
    if (best === undefined) return undefined;
    const host = this.#forward.get(best) as string;
    const rest = p.slice(best === "/" ? 0 : best.length);
    return rest === "" ? host : `${host}${rest.startsWith("/") ? "" : "/"}${rest}`;
  }

  /**
   * Rewrites virtual paths in a shell command to host paths.
   *
   * @param command - the command as the agent wrote it.
   * @returns the command with every virtual path at a word boundary replaced.
   */
  toHostCommand(command: string): string {
    if (this.#forward.size === 0) return command;
    let out = "";
    let state: QuoteState = "none";
    let i = 0;
    while (i < command.length) {
      const ch = command[i] as string;
      if (ch === "/" && (i === 0 || COMMAND_START.has(command[i - 1] as string))) {
        const virtual = this.#longestCommandMatch(command, i);
        if (virtual !== undefined) {
          out += escapeForShell(this.#forward.get(virtual) as string, state);
          i += virtual.length;
          continue;
        }
      }
      // Quote tracking: enough of POSIX quoting to pick the right escaping.
      if (state === "none") {
        if (ch === "\\") {
          out += command.slice(i, i + 2);
          i += 2;
          continue;
        }
        if (ch === "'") state = "single";
        else if (ch === '"') state = "double";
        else if (ch === "$" && command[i + 1] === "'") {
          state = "ansi";
          out += "$'";
          i += 2;
          continue;
        }
      } else if (state === "single") {
        if (ch === "'") state = "none";
      } else if (ch === "\\") {
        out += command.slice(i, i + 2);
        i += 2;
        continue;
      } else if ((state === "double" && ch === '"') || (state === "ansi" && ch === "'")) {
        state = "none";
      }
      out += ch;
      i += 1;
    }
    return out;
  }

  /** The longest virtual prefix at `index` that ends at a command boundary. */
  #longestCommandMatch(command: string, index: number): string | undefined {
    // Candidates are few (one per mount): check them all, keep the longest.
    let best: string | undefined;
    for (const virtual of this.#forward.keys()) {
      if (virtual === "/" || !command.startsWith(virtual, index)) continue;
      const next = command[index + virtual.length];
      if (next !== undefined && next !== "/" && !COMMAND_END.has(next)) continue;
      if (best === undefined || virtual.length > best.length) best = virtual;
    }
    return best;
  }

  /**
   * Rewrites host paths in command output to virtual paths, hiding host paths
   * of unmounted siblings.
   *
   * @param text - decoded output.
   * @returns text without any mounted host path in it.
   */
  toVirtualText(text: string): string {
    const pattern = this.#outputPattern;
    if (pattern === undefined) return text;
    let out = "";
    let pos = 0;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const at = m.index;
      let replaced = false;
      for (const { hostPath, virtualPath } of this.#reverse) {
        if (text.startsWith(hostPath, at) && endsAtOutputBoundary(text, at + hostPath.length)) {
          out += text.slice(pos, at) + virtualPath;
          pos = at + hostPath.length;
          replaced = true;
          break;
        }
      }
      if (!replaced) {
        // A sibling sharing a mount's name prefix: hide the whole token.
        let end = at + m[0].length;
        while (end < text.length && !OUTPUT_TOKEN_END.test(text[end] as string)) end += 1;
        out += text.slice(pos, at) + HIDDEN_HOST_PATH;
        pos = end;
      }
      pattern.lastIndex = pos;
    }
    return out + text.slice(pos);
  }

  /**
   * Drops a trailing fragment that is the start of a host path. Output cut by
   * a byte cap can end inside a host path, which {@link toVirtualText} cannot
   * recognise any more.
   *
   * @param text - output that was truncated.
   * @returns `text` without such a fragment (fragments shorter than 2 characters are kept).
   */
  trimPartialHostPath(text: string): string {
    let tokenStart = text.length;
    while (tokenStart > 0 && !OUTPUT_TOKEN_END.test(text[tokenStart - 1] as string)) tokenStart -= 1;
    for (let j = tokenStart; j < text.length; j += 1) {
      if (text[j] !== "/") continue;
      const fragment = text.slice(j);
      if (
        fragment.length >= 2 &&
        this.#reverse.some((m) => m.hostPath.length > fragment.length && m.hostPath.startsWith(fragment))
      ) {
        return text.slice(0, j);
      }
    }
    return text;
  }
}
