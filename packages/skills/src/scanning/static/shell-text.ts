/**
 * Length-preserving views of a shell script for the shell rules. A comment
 * (`#` at a word start, outside quotes) is prose, not a command, so blanking it
 * keeps `# never pipe curl into bash` from reading as a pipe-to-shell. Heredoc
 * bodies are kept in {@link ShellViews.code} (they are often fed to a shell) and
 * blanked only in {@link ShellViews.commands}.
 */

/** Views of one script; every offset and line number matches the original. */
export interface ShellViews {
  /** Comments blanked; quoted text and heredoc bodies kept. */
  readonly code: string;
  /** Comments and heredoc bodies blanked: only what runs as a command line. */
  readonly commands: string;
}

const HEREDOC_HEAD = /<<(-?)[ \t]*(["']?)([A-Za-z_][\w]*)\2/y;
const COMMENT_MAY_FOLLOW = " \t;&|()<>";

const blankLine = (line: string): string => " ".repeat(line.length);

/**
 * Builds the {@link ShellViews} of a script. Quote state carries across lines
 * (a multi-line `'…'` is one word to the shell); heredoc bodies are not lexed.
 *
 * @param text - the script.
 * @returns the views.
 */
export function shellViews(text: string): ShellViews {
  const code: string[] = [];
  const commands: string[] = [];
  const pending: Array<{ delimiter: string; stripTabs: boolean }> = [];
  let quote: "'" | '"' | "$'" | null = null;
  for (const line of text.split("\n")) {
    const heredoc = pending[0];
    if (heredoc !== undefined) {
      const bare = line.replace(/\r$/, ""); // CRLF scripts
      if ((heredoc.stripTabs ? bare.replace(/^\t+/, "") : bare) === heredoc.delimiter) pending.shift();
      code.push(line);
      commands.push(blankLine(line));
      continue;
    }
    let cut = line.length;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i] ?? "";
      if (quote === "'") {
        if (ch === "'") quote = null;
      } else if (quote !== null) {
        if (ch === "\\") i++;
        else if ((quote === '"' && ch === '"') || (quote === "$'" && ch === "'")) quote = null;
      } else if (ch === "\\") {
        i++;
      } else if (ch === "'") {
        quote = line[i - 1] === "$" ? "$'" : "'";
      } else if (ch === '"') {
        quote = '"';
      } else if (ch === "#" && (i === 0 || COMMENT_MAY_FOLLOW.includes(line[i - 1] ?? ""))) {
        cut = i;
        break;
      } else if (ch === "<" && line[i + 1] === "<" && line[i + 2] !== "<" && !/\w/.test(line[i - 1] ?? "")) {
        HEREDOC_HEAD.lastIndex = i;
        const head = HEREDOC_HEAD.exec(line);
        if (head !== null) {
          pending.push({ delimiter: head[3] ?? "", stripTabs: head[1] === "-" });
          i = HEREDOC_HEAD.lastIndex - 1;
        }
      }
    }
    const kept = line.slice(0, cut) + " ".repeat(line.length - cut);
    code.push(kept);
    commands.push(kept);
  }
  return { code: code.join("\n"), commands: commands.join("\n") };
}
