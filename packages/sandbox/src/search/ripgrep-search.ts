/**
 * ripgrep as a prefilter for `grep`: it lists, at native speed, the files that
 * contain one of the pattern's required literals, and the JavaScript search
 * then walks and reads only those (see `CandidateFiles`). Results are the
 * JavaScript search's own — same regex dialect, limits, order and output —
 * because the list is a superset of the files with matches; when ripgrep
 * cannot give a trustworthy list (no required literal, missing binary, any
 * error, output cut), the search walks everything, as without ripgrep.
 *
 * ripgrep runs as a command of the sandbox, through its runner, read-only:
 * under bubblewrap it sees exactly the sandbox's view, as the sandbox's uid,
 * so a command racing it (swapping a folder for a symlink) can only redirect
 * it inside that view; the paths it prints are used as names to keep, never
 * opened as given.
 */
import { HIDDEN_HOST_PATH } from "../exec/path-rewrite.js";
import type { Logger } from "../logger.js";
import { silentLogger } from "../logger.js";
import type { ExecuteResult } from "../sandbox.js";
import { CandidateFiles } from "./candidate-files.js";
import { literalPrefilter } from "./literal-prefilter.js";
import { ripgrepCommand } from "./ripgrep-command.js";

/** One read-only command in the sandbox: the command, its extra variables and its virtual working directory. */
export type SearchCommandRunner = (request: {
  readonly command: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}) => Promise<ExecuteResult>;

/** Options of {@link RipgrepSearch}. */
export interface RipgrepSearchOptions {
  /** Runs the listing inside the sandbox (the sandbox's runner with a read-only spec). */
  readonly run: SearchCommandRunner;
  /**
   * Virtual paths of the sandbox's mounts. A host runner maps host paths in
   * output back to these; a listed path with one inside it may have been
   * rewritten, so the list is not trusted.
   */
  readonly mountPaths: readonly string[];
  readonly logger?: Logger;
}

/** `sh` exit status for a command that was not found. */
const COMMAND_NOT_FOUND = 127;

/**
 * Lists grep candidates with ripgrep, for one sandbox.
 *
 * @example
 * const ripgrep = new RipgrepSearch({ run, mountPaths: mounts.map((m) => m.virtualPath) });
 * const candidates = await ripgrep.candidates(/TODO/, "/mnt/user-data/workspace", ["/mnt/user-data/workspace"]);
 * // undefined: search everything; otherwise prune the walk with candidates.omitting(omit)
 */
export class RipgrepSearch {
  readonly #run: SearchCommandRunner;
  readonly #markers: readonly string[];
  readonly #logger: Logger;
  /** Set once ripgrep turned out to be missing in the sandbox: it is not tried again. */
  #missing = false;

  /** @param options - Runner, mounts, logger. */
  constructor(options: RipgrepSearchOptions) {
    this.#run = options.run;
    this.#markers = [HIDDEN_HOST_PATH, ...options.mountPaths.map((p) => p.replace(/\/+$/, "")).filter((p) => p !== "")];
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * Lists the files under `roots` that may hold a match of `regex`.
   *
   * @param regex - The compiled grep pattern.
   * @param virtualRoot - The search root; returned paths are relative to it.
   * @param roots - Absolute virtual folders to search (the root and nested mounts), at or below `virtualRoot`.
   * @returns The candidates, or `undefined` when every file must be searched.
   */
  async candidates(regex: RegExp, virtualRoot: string, roots: readonly string[]): Promise<CandidateFiles | undefined> {
    if (this.#missing || roots.length === 0) return undefined;
    const prefilter = literalPrefilter(regex);
    if (prefilter === undefined) return undefined;
    const { command, env } = ripgrepCommand(prefilter, roots);
    let result: ExecuteResult;
    try {
      result = await this.#run({ command, env, cwd: roots[0] as string });
    } catch (err) {
      this.#logger.debug({ code: (err as { code?: unknown }).code }, "ripgrep could not run; grep searches every file");
      return undefined;
    }
    if (result.exitCode === COMMAND_NOT_FOUND) {
      this.#missing = true;
      this.#logger.warn({}, "ripgrep (rg) is not available inside the sandbox; grep searches every file");
      return undefined;
    }
    // 0: some file matched, 1: none. Anything else, a message, a timeout or a cut list: not trusted.
    if (
      (result.exitCode !== 0 && result.exitCode !== 1) ||
      result.stderr !== "" ||
      result.timedOut ||
      result.truncated
    ) {
      this.#logger.debug(
        { exitCode: result.exitCode, timedOut: result.timedOut, truncated: result.truncated },
        "ripgrep listing unusable; grep searches every file",
      );
      return undefined;
    }
    return this.#parse(result.stdout, virtualRoot, roots);
  }

  #parse(stdout: string, virtualRoot: string, roots: readonly string[]): CandidateFiles | undefined {
    const base = virtualRoot === "/" ? "/" : `${virtualRoot}/`;
    const files: string[] = [];
    for (const listed of stdout.split("\0")) {
      if (listed === "") continue;
      const root = roots.find((r) => listed.startsWith(r === "/" ? "/" : `${r}/`));
      if (root === undefined || !listed.startsWith(base)) return this.#untrusted();
      const below = listed.slice(root.length);
      if (this.#markers.some((marker) => below.includes(marker))) return this.#untrusted();
      files.push(listed.slice(base.length));
    }
    return new CandidateFiles(files);
  }

  #untrusted(): undefined {
    this.#logger.debug(
      {},
      "ripgrep listed a path outside the search or rewritten by the runner; grep searches every file",
    );
    return undefined;
  }
}
