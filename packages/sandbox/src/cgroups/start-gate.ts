/**
 * The start gate: a process that exists (so it has a pid to put in a cgroup)
 * but has not started the real command yet. `runProcessTree` spawns
 * `/bin/sh -c 'read -r _ || exit 125; exec "$@" </dev/null' ...` with stdin
 * a pipe; the shell blocks on that pipe until the caller has done what must
 * come first (attach the pid to the sandbox's cgroup), then the caller writes
 * one line and the shell execs the command in place (same pid, stdin back on
 * `/dev/null`). If the caller dies or closes the pipe instead, `read` fails
 * and the command never runs. Nothing forks before the gate opens, so every
 * process of the command starts inside the cgroup.
 *
 * Why not attach right after `spawn()`: the child may already have forked by
 * then, and children forked before the attach would stay outside the bound.
 */
import type { Writable } from "node:stream";

/** Shell running the gate (POSIX `read` reads a pipe byte by byte, never past the line). */
const GATE_SHELL = "/bin/sh";

/** The gate script; `$0` is a label, `"$@"` the real command. */
const GATE_SCRIPT = 'read -r _ || exit 125; exec "$@" </dev/null';

/** The gate script that leaves stdin to the command (a control channel the command keeps reading). */
const GATE_SCRIPT_KEEP_STDIN = 'read -r _ || exit 125; exec "$@"';

/** The line that opens a gate. */
export const GATE_OPEN_LINE = "go\n";

/**
 * The command line that runs `file args...` behind the gate.
 *
 * @param file - The real executable.
 * @param args - Its arguments.
 * @param options - `keepStdin`: the command inherits the stdin the gate read
 *   its line from (the caller writes {@link GATE_OPEN_LINE} first, then its own
 *   protocol); by default stdin goes back to `/dev/null`.
 * @returns What to spawn instead (stdin must be a pipe or socket).
 */
export function gatedCommand(
  file: string,
  args: readonly string[],
  options: { readonly keepStdin?: boolean } = {},
): { readonly file: string; readonly args: string[] } {
  const script = options.keepStdin === true ? GATE_SCRIPT_KEEP_STDIN : GATE_SCRIPT;
  return { file: GATE_SHELL, args: ["-c", script, "deerflow-start-gate", file, ...args] };
}

/**
 * Lets the gated process start the real command and closes the pipe.
 *
 * @param stdin - The child's stdin pipe.
 */
export function openGate(stdin: Writable | null): void {
  stdin?.end(GATE_OPEN_LINE);
}
