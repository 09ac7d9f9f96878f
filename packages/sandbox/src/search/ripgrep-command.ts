/**
 * The ripgrep command line that lists the files which may match a grep: a
 * byte search (`--fixed-strings`, raw bytes, no encoding sniffing) for the
 * pattern's required literals over the same files the JavaScript walk
 * visits — hidden files included, no `.gitignore` / `.ignore` / global
 * excludes, DeerFlow's ignore list as `!` globs, symlinks never followed,
 * files over the grep size cap skipped — printing NUL-separated paths.
 * Binary files and long lines are searched too: the JavaScript search that
 * follows applies those rules, so the list only has to be a superset.
 */
import { shellQuote } from "../internal/shell-quote.js";
import { GREP_MAX_FILE_BYTES } from "../limits.js";
import { IGNORE_PATTERNS } from "./ignore.js";
import type { LiteralPrefilter } from "./literal-prefilter.js";

/** A shell command and the variables it reads. */
export interface RipgrepCommand {
  /** For `sh -c`; paths are single-quoted, literals come from {@link RipgrepCommand.env}. */
  readonly command: string;
  /**
   * The literals, one variable each: the command text is rewritten by host
   * runners (virtual → host paths), the environment is not, so a literal that
   * looks like a virtual path is searched as written.
   */
  readonly env: Readonly<Record<string, string>>;
}

/** Prefix of the variables carrying the literals. */
export const LITERAL_VARIABLE_PREFIX = "DEERFLOW_RG_LITERAL_";

/** Flags that make ripgrep visit what `walkTree` visits and list files by name only. */
const LISTING_FLAGS = [
  "--files-with-matches",
  "--null",
  "--no-config",
  "--hidden",
  "--no-ignore",
  "--no-follow",
  "--text",
  "--encoding=none",
  `--max-filesize=${GREP_MAX_FILE_BYTES}`,
  "--fixed-strings",
];

/**
 * Builds the listing command.
 *
 * @param prefilter - Literals and case mode (`literalPrefilter`).
 * @param roots - Absolute paths of the folders to search, as the runner's command sees them.
 * @returns The command and its environment.
 * @example
 * ripgrepCommand({ literals: ["TODO"], ignoreCase: true }, ["/mnt/user-data/workspace"]).command;
 * // exec rg --files-with-matches --null ... --ignore-case -e "$DEERFLOW_RG_LITERAL_0" -- '/mnt/user-data/workspace'
 */
export function ripgrepCommand(prefilter: LiteralPrefilter, roots: readonly string[]): RipgrepCommand {
  const env: Record<string, string> = {};
  const patterns = prefilter.literals.map((literal, index) => {
    const name = `${LITERAL_VARIABLE_PREFIX}${index}`;
    env[name] = literal;
    return `-e "$${name}"`;
  });
  const words = [
    "exec rg",
    ...LISTING_FLAGS,
    prefilter.ignoreCase ? "--ignore-case" : "--case-sensitive",
    ...IGNORE_PATTERNS.map((pattern) => `--glob=${shellQuote(`!${pattern}`)}`),
    ...patterns,
    "--",
    ...roots.map(shellQuote),
  ];
  return { command: words.join(" "), env };
}
