/**
 * Splits a shell command into words and operator tokens the way DeerFlow's
 * validator does (Python `shlex` in POSIX mode with `punctuation_chars=True`,
 * `whitespace_split=True`, no comments), so both reach the same verdicts.
 * Newlines count as `;`. Quotes are removed, runs of `();<>|&` become one
 * token (`&&`, `>>`, `2>&1` → `2`, `>&`, `1`).
 */

const WHITESPACE = new Set([" ", "\t", "\r", "\n"]);
const PUNCTUATION = new Set(["(", ")", ";", "<", ">", "|", "&"]);
const QUOTES = new Set(["'", '"']);

/** Thrown for unbalanced quotes or a trailing backslash. */
class ShellSyntaxError extends Error {}

type State = " " | "a" | "c" | "'" | '"' | "\\";

/** One pass of the POSIX shlex state machine. */
function lex(input: string): string[] {
  const tokens: string[] = [];
  let token = "";
  let quoted = false;
  let state: State = " ";
  let escapedState = "a" as State;
  const emit = (): void => {
    if (token !== "" || quoted) tokens.push(token);
    token = "";
    quoted = false;
  };
  for (let i = 0; i <= input.length; i++) {
    const ch = i < input.length ? (input[i] as string) : "";
    if (state === " ") {
      if (ch === "" || WHITESPACE.has(ch)) continue;
      if (ch === "\\") {
        escapedState = "a";
        state = "\\";
      } else if (PUNCTUATION.has(ch)) {
        token = ch;
        state = "c";
      } else if (QUOTES.has(ch)) {
        state = ch as State;
      } else {
        token = ch;
        state = "a";
      }
    } else if (state === "'" || state === '"') {
      quoted = true;
      if (ch === "") throw new ShellSyntaxError("No closing quotation");
      if (ch === state) state = "a";
      else if (ch === "\\" && state === '"') {
        escapedState = state;
        state = "\\";
      } else token += ch;
    } else if (state === "\\") {
      if (ch === "") throw new ShellSyntaxError("No escaped character");
      // Inside double quotes a backslash only escapes `"` and `\`; elsewhere it is kept.
      if (escapedState === '"' && ch !== "\\" && ch !== '"') token += "\\";
      token += ch;
      state = escapedState;
    } else {
      // "a" (word) or "c" (operator run)
      if (ch === "") {
        emit();
        break;
      }
      if (WHITESPACE.has(ch)) {
        state = " ";
        emit();
      } else if (state === "c") {
        if (PUNCTUATION.has(ch)) token += ch;
        else {
          state = " ";
          emit();
          i--; // re-read this character as the start of the next token
        }
      } else if (QUOTES.has(ch)) {
        state = ch as State;
      } else if (ch === "\\") {
        escapedState = "a";
        state = "\\";
      } else if (!PUNCTUATION.has(ch)) {
        token += ch;
      } else {
        state = " ";
        emit();
        i--;
      }
    }
  }
  return tokens;
}

/**
 * Tokenises a command for validation. Malformed quoting falls back to a plain
 * whitespace split: the shell rejects such a command anyway, and validation
 * stays best-effort rather than reporting a syntax error as a security problem.
 *
 * @param command - The command as the model wrote it.
 * @returns Its tokens.
 */
export function splitShellTokens(command: string): string[] {
  try {
    return lex(command.replace(/\r\n?/g, "\n").replaceAll("\n", " ; "));
  } catch (err) {
    if (err instanceof ShellSyntaxError) return command.split(/\s+/).filter((t) => t !== "");
    throw err;
  }
}

/** Tokens that end one simple command and start another. */
export const SHELL_COMMAND_SEPARATORS: ReadonlySet<string> = new Set([";", "&&", "||", "|", "|&", "&", "(", ")"]);

/** Redirection operators (the next token is their target). */
export const SHELL_REDIRECTIONS: ReadonlySet<string> = new Set([
  "<",
  ">",
  "<<",
  ">>",
  "<<<",
  "<>",
  ">&",
  "<&",
  "&>",
  "&>>",
  ">|",
]);
