/**
 * What a stdio MCP server written through the API may run (DeerFlow §2.4): one
 * executable name on an allowlist (default `npx`, `uvx`; extended by
 * `DEER_FLOW_MCP_STDIO_COMMAND_ALLOWLIST`), no eval-style flags, no
 * environment variables that inject code at startup. A file edited by hand is
 * not checked (the operator wrote it).
 */
import { GatewayError } from "@deerflow/gateway";

/** The environment variable extending the allowlist (comma-separated names). */
export const STDIO_ALLOWLIST_ENV = "DEER_FLOW_MCP_STDIO_COMMAND_ALLOWLIST";

const DEFAULT_ALLOWED = ["npx", "uvx"];
const EVAL_FLAGS = new Set(["-c", "--call", "-e", "--eval", "--print", "--shell", "--node-arg", "--node-options"]);
const INJECTING_ENV = new Set([
  "BASH_ENV",
  "DYLD_INSERT_LIBRARIES",
  "DYLD_LIBRARY_PATH",
  "ENV",
  "LD_AUDIT",
  "LD_LIBRARY_PATH",
  "LD_PRELOAD",
  "NODE_OPTIONS",
  "PERL5OPT",
  "PYTHONHOME",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "RUBYOPT",
]);
const SHELL_META = /[;|&`$<>\n\r\s]/;

/**
 * The allowed commands.
 *
 * @param env - the environment
 * @returns the default names plus those of {@link STDIO_ALLOWLIST_ENV}
 */
function stdioAllowlist(env: NodeJS.ProcessEnv): string[] {
  const extra = (env[STDIO_ALLOWLIST_ENV] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  return [...new Set([...DEFAULT_ALLOWED, ...extra])];
}

const bad = (message: string): GatewayError => new GatewayError("BAD_REQUEST", message);

/**
 * Checks one stdio entry.
 *
 * @param name - the server's name
 * @param entry - `command`, `args`, `env` of the entry
 * @param env - the server's environment (for the allowlist)
 * @throws GatewayError `BAD_REQUEST` (400) with DeerFlow's text
 */
export function checkStdioCommand(
  name: string,
  entry: { readonly command?: unknown; readonly args?: unknown; readonly env?: unknown },
  env: NodeJS.ProcessEnv,
): void {
  const command = typeof entry.command === "string" ? entry.command : "";
  if (command === "" || SHELL_META.test(command) || command.includes("/") || command.includes("\\"))
    throw bad(`MCP server '${name}' command must be a single executable name; put parameters in args instead.`);
  const allowed = stdioAllowlist(env);
  if (!allowed.includes(command))
    throw bad(
      `MCP server '${name}' uses disallowed stdio command '${command}'. Allowed commands: ${allowed.join(", ")}. Configure ${STDIO_ALLOWLIST_ENV} to extend this list.`,
    );
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  const launcher = command === "npx" || command === "uvx";
  for (const arg of args) {
    if (launcher && (arg === "--" || !arg.startsWith("-"))) break;
    const flag = arg.split("=")[0] ?? arg;
    if (EVAL_FLAGS.has(flag))
      throw bad(
        `MCP server '${name}' passes '${flag}' to '${command}', which would run arbitrary code. Point the server at a package or module instead.`,
      );
  }
  const vars = entry.env !== null && typeof entry.env === "object" ? Object.keys(entry.env) : [];
  for (const key of vars)
    if (INJECTING_ENV.has(key.toUpperCase()))
      throw bad(
        `MCP server '${name}' sets environment variable '${key}', which would run arbitrary code at process startup.`,
      );
}
